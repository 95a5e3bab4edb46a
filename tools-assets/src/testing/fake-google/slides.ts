import { GoogleApiError, requireFields, type FakeGoogleApi, type GoogleRequest, type GoogleResponse } from '../fake-google-api';
import { batchRequests, isRecord, partialResponse, rejectUnknownFields, rejectUnknownQuery, requestKind, type FieldSchema } from './api-checks';

const HOST = 'slides.googleapis.com';
const BASE = '/v1/presentations';
// 16:9 at 10 x 5.625 inches.
const PAGE_WIDTH = 9_144_000;
const PAGE_HEIGHT = 5_143_500;

type Json = Record<string, unknown>;

interface Box {
  objectId: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export type SlideElement =
  | (Box & { kind: 'shape'; shapeType: string; text: string; placeholder?: { type: string; index?: number; parentObjectId?: string } })
  | (Box & { kind: 'image'; contentUrl: string; sourceUrl?: string })
  | (Box & { kind: 'table'; cells: string[][] })
  | (Box & { kind: 'group'; children: SlideElement[] });

export interface SlidePage {
  objectId: string;
  elements: SlideElement[];
  /** Slides: the layout and master they use. Layouts: their master, name and display name. */
  layoutObjectId?: string;
  masterObjectId?: string;
  layoutName?: string;
  displayName?: string;
}

export interface PresentationState {
  presentationId: string;
  title: string;
  locale: string;
  revision: number;
  slides: SlidePage[];
  layouts: SlidePage[];
  masters: SlidePage[];
  nextObjectId: number;
}

export interface SlidesFake {
  readonly presentations: Map<string, PresentationState>;
  /** The seeded "Quarterly Review" deck: slides g_intro (TITLE), g_highlights (TITLE_AND_BODY), g_numbers (TITLE_ONLY, a table and an image), g_closing (BLANK, a group). */
  readonly seeded: { readonly review: string };
  /** The presentation as presentations.get returns it. */
  render(presentationId: string): Json;
  /** Per slide, the texts of its shapes (placeholders, text boxes, shapes in groups) in drawing order. */
  texts(presentationId: string): string[][];
}

type Placeholder = { type: string; index?: number; x: number; y: number; w: number; h: number };

/** The predefined layouts of the default "Simple Light" master and their placeholders. */
const LAYOUTS: Record<string, { displayName: string; placeholders: Placeholder[] }> = {
  BLANK: { displayName: 'Blank', placeholders: [] },
  CAPTION_ONLY: { displayName: 'Caption', placeholders: [{ type: 'BODY', x: 311700, y: 4230575, w: 8520600, h: 605100 }] },
  TITLE: {
    displayName: 'Title slide',
    placeholders: [
      { type: 'CENTERED_TITLE', x: 311700, y: 744575, w: 8520600, h: 2052600 },
      { type: 'SUBTITLE', x: 311700, y: 2834125, w: 8520600, h: 792600 },
    ],
  },
  TITLE_AND_BODY: {
    displayName: 'Title and body',
    placeholders: [
      { type: 'TITLE', x: 311700, y: 445025, w: 8520600, h: 572700 },
      { type: 'BODY', x: 311700, y: 1152475, w: 8520600, h: 3416400 },
    ],
  },
  TITLE_AND_TWO_COLUMNS: {
    displayName: 'Title and two columns',
    placeholders: [
      { type: 'TITLE', x: 311700, y: 445025, w: 8520600, h: 572700 },
      { type: 'BODY', x: 311700, y: 1152475, w: 3999900, h: 3416400 },
      { type: 'BODY', index: 1, x: 4832400, y: 1152475, w: 3999900, h: 3416400 },
    ],
  },
  TITLE_ONLY: { displayName: 'Title only', placeholders: [{ type: 'TITLE', x: 311700, y: 445025, w: 8520600, h: 572700 }] },
  SECTION_HEADER: { displayName: 'Section header', placeholders: [{ type: 'TITLE', x: 311700, y: 2150850, w: 8520600, h: 841800 }] },
  SECTION_TITLE_AND_DESCRIPTION: {
    displayName: 'Section title and description',
    placeholders: [
      { type: 'TITLE', x: 265500, y: 1233175, w: 4045200, h: 1482300 },
      { type: 'SUBTITLE', x: 265500, y: 2803075, w: 4045200, h: 1235100 },
      { type: 'BODY', x: 4939500, y: 724075, w: 3837000, h: 3695100 },
    ],
  },
  ONE_COLUMN_TEXT: {
    displayName: 'One column text',
    placeholders: [
      { type: 'TITLE', x: 311700, y: 555600, w: 2808000, h: 755700 },
      { type: 'BODY', x: 311700, y: 1389600, w: 2808000, h: 3179700 },
    ],
  },
  MAIN_POINT: { displayName: 'Main point', placeholders: [{ type: 'TITLE', x: 490250, y: 450150, w: 8163600, h: 3825300 }] },
  BIG_NUMBER: {
    displayName: 'Big number',
    placeholders: [
      { type: 'TITLE', x: 311700, y: 1106125, w: 8520600, h: 1963500 },
      { type: 'BODY', x: 311700, y: 3152225, w: 8520600, h: 1300800 },
    ],
  },
};

const PRESENTATION_SCHEMA: FieldSchema = Object.fromEntries(
  ['presentationId', 'pageSize', 'slides', 'title', 'masters', 'layouts', 'locale', 'revisionId', 'notesMaster'].map((f) => [f, true as const]),
);

/** Every request kind of presentations.batchUpdate; the fake models the common ones and accepts the rest after checking the objects they name. */
const REQUEST_KINDS = [
  'createSlide',
  'createShape',
  'createTable',
  'insertText',
  'insertTableRows',
  'insertTableColumns',
  'deleteTableRow',
  'deleteTableColumn',
  'replaceAllText',
  'deleteObject',
  'updatePageElementTransform',
  'updateSlidesPosition',
  'deleteText',
  'createImage',
  'createVideo',
  'createSheetsChart',
  'createLine',
  'refreshSheetsChart',
  'updateShapeProperties',
  'updateImageProperties',
  'updateVideoProperties',
  'updatePageProperties',
  'updateTableCellProperties',
  'updateLineProperties',
  'createParagraphBullets',
  'replaceAllShapesWithImage',
  'duplicateObject',
  'updateTextStyle',
  'replaceAllShapesWithSheetsChart',
  'deleteParagraphBullets',
  'updateParagraphStyle',
  'updateTableBorderProperties',
  'updateTableColumnProperties',
  'updateTableRowProperties',
  'mergeTableCells',
  'unmergeTableCells',
  'groupObjects',
  'ungroupObjects',
  'updatePageElementAltText',
  'replaceImage',
  'updateSlideProperties',
  'updatePageElementsZOrder',
  'updateLineCategory',
  'rerouteLine',
];

/**
 * A fake of the Google Slides API v1 (https://developers.google.com/slides/api/reference/rest), in
 * memory: presentations with a "Simple Light" master, its eleven predefined layouts, and slides of
 * shapes (with text), tables, images and groups. `presentations.get` answers in the API's shape
 * (text as paragraph markers and text runs with indices, sizes in EMU) and honours `fields`;
 * batchUpdate checks each request as the API does (one kind per request, object ids that exist,
 * unique ids of 5-50 characters, indices in range, the predefined layout enum), applies them all or
 * none, and bumps the revision id. An unknown presentation is a 404; an unknown object in a request
 * is a 400 naming the request, like Google's.
 */
export function registerSlidesRoutes(api: FakeGoogleApi): SlidesFake {
  const presentations = new Map<string, PresentationState>();
  let counter = 0;

  const find = (id: string): PresentationState => {
    const found = presentations.get(id);
    if (!found) throw new GoogleApiError(404, 'Requested entity was not found.', 'NOT_FOUND');
    return found;
  };

  const create = (title: string, presentationId?: string): PresentationState => {
    counter += 1;
    const deck: PresentationState = {
      presentationId: presentationId ?? newPresentationId(counter),
      title,
      locale: 'en',
      revision: 1,
      slides: [],
      layouts: [],
      masters: [{ objectId: 'g_master', elements: [], displayName: 'Simple Light' }],
      nextObjectId: 0,
    };
    for (const [name, layout] of Object.entries(LAYOUTS)) {
      const objectId = `g_layout_${name.toLowerCase()}`;
      deck.layouts.push({
        objectId,
        masterObjectId: 'g_master',
        layoutName: name,
        displayName: layout.displayName,
        elements: layout.placeholders.map((p, i) => ({
          kind: 'shape',
          objectId: `${objectId}_${i}`,
          shapeType: 'TEXT_BOX',
          text: '',
          placeholder: { type: p.type, ...(p.index ? { index: p.index } : {}) },
          x: p.x,
          y: p.y,
          w: p.w,
          h: p.h,
        })),
      });
    }
    presentations.set(deck.presentationId, deck);
    return deck;
  };

  // ---- seed ----
  const review = create('Quarterly Review');
  const seedSlide = (objectId: string, layout: string, texts: string[], extra: SlideElement[] = []): void => {
    const slide = slideFromLayout(review, layout, objectId, new Map());
    slide.elements.forEach((element, i) => {
      if (element.kind === 'shape') {
        element.objectId = `${objectId}_${(element.placeholder?.type ?? 'shape').toLowerCase()}${i > 1 ? i : ''}`;
        element.text = texts[i] ?? '';
      }
    });
    slide.elements.push(...extra);
    review.slides.push(slide);
  };
  seedSlide('g_intro', 'TITLE', ['Quarterly Review', 'Q3 2024 · Finance team']);
  seedSlide('g_highlights', 'TITLE_AND_BODY', ['Highlights', 'Revenue up 12%\nChurn down to 3%\nTwo new regions']);
  seedSlide(
    'g_numbers',
    'TITLE_ONLY',
    ['Numbers by region'],
    [
      {
        kind: 'table',
        objectId: 'g_numbers_table',
        x: 311700,
        y: 1152475,
        w: 4000000,
        h: 1200000,
        cells: [
          ['Region', 'Revenue'],
          ['EMEA', '1.2M'],
          ['APAC', '0.8M'],
        ],
      },
      {
        kind: 'image',
        objectId: 'g_numbers_chart',
        x: 4832400,
        y: 1152475,
        w: 3999900,
        h: 2400000,
        contentUrl: 'https://lh3.googleusercontent.com/fake-chart=s1600',
        sourceUrl: 'https://example.com/chart.png',
      },
    ],
  );
  seedSlide(
    'g_closing',
    'BLANK',
    [],
    [
      {
        kind: 'group',
        objectId: 'g_closing_group',
        x: 2000000,
        y: 1500000,
        w: 5000000,
        h: 2000000,
        children: [
          { kind: 'shape', objectId: 'g_closing_frame', shapeType: 'ROUND_RECTANGLE', text: '', x: 2000000, y: 1500000, w: 5000000, h: 2000000 },
          { kind: 'shape', objectId: 'g_closing_text', shapeType: 'TEXT_BOX', text: 'Questions?', x: 2500000, y: 2000000, w: 4000000, h: 1000000 },
        ],
      },
    ],
  );

  const json = (req: GoogleRequest, value: unknown, schema?: FieldSchema): GoogleResponse => ({ json: partialResponse(req, value, schema) });

  api.route('POST', HOST, BASE, (req) => {
    rejectUnknownQuery(req, []);
    const body = req.json();
    rejectUnknownFields(body, ['presentationId', 'pageSize', 'slides', 'title', 'masters', 'layouts', 'locale', 'revisionId', 'notesMaster'], 'presentation');
    if (typeof body.presentationId === 'string' && presentations.has(body.presentationId)) {
      throw new GoogleApiError(409, `A presentation with the ID ${body.presentationId} already exists.`, 'ALREADY_EXISTS');
    }
    // Like the API, only the title (and an optional id) are taken; a new deck starts with one title slide.
    const deck = create(
      typeof body.title === 'string' && body.title !== '' ? body.title : 'Untitled presentation',
      typeof body.presentationId === 'string' ? body.presentationId : undefined,
    );
    deck.slides.push(slideFromLayout(deck, 'TITLE', undefined, new Map()));
    return json(req, renderPresentation(deck));
  });

  api.route('GET', HOST, `${BASE}/{presentationId}`, (req) => {
    rejectUnknownQuery(req, []);
    return json(req, renderPresentation(find(req.params.presentationId as string)), PRESENTATION_SCHEMA);
  });

  api.route('POST', HOST, `${BASE}/{presentationId}:batchUpdate`, (req) => {
    rejectUnknownQuery(req, []);
    const deck = find(req.params.presentationId as string);
    const body = req.json();
    rejectUnknownFields(body, ['requests', 'writeControl'], 'batch_update_presentation_request');
    const requests = batchRequests(body);
    const control = isRecord(body.writeControl) ? body.writeControl : {};
    if (control.requiredRevisionId !== undefined && control.requiredRevisionId !== revisionId(deck)) {
      throw new GoogleApiError(
        400,
        `The provided revision ID ${String(control.requiredRevisionId)} does not match the latest revision of the presentation.`,
        'FAILED_PRECONDITION',
      );
    }
    const draft = structuredClone(deck);
    const replies = requests.map((request, i) => applyRequest(draft, request, `requests[${i}]`));
    draft.revision += 1;
    presentations.set(draft.presentationId, draft);
    return json(req, { presentationId: draft.presentationId, replies, writeControl: { requiredRevisionId: revisionId(draft) } });
  });

  return {
    presentations,
    seeded: { review: review.presentationId },
    render: (id) => renderPresentation(find(id)),
    texts: (id) =>
      find(id).slides.map((slide) =>
        flatten(slide.elements)
          .filter((e): e is Extract<SlideElement, { kind: 'shape' }> => e.kind === 'shape' && e.text !== '')
          .map((e) => e.text),
      ),
  };
}

function newPresentationId(n: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  let seed = (n * 2_654_435_761) >>> 0;
  let id = '1';
  while (id.length < 44) {
    seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
    id += alphabet[seed >>> 26];
  }
  return id;
}

function revisionId(deck: PresentationState): string {
  return `rev_${deck.presentationId.slice(1, 9)}_${deck.revision}`;
}

function newObjectId(deck: PresentationState): string {
  const id = `SLIDES_API${1_000_000_000 + deck.presentationId.charCodeAt(1) * 1_000_003}_${deck.nextObjectId}`;
  deck.nextObjectId += 1;
  return id;
}

function flatten(elements: SlideElement[]): SlideElement[] {
  return elements.flatMap((e) => (e.kind === 'group' ? [e, ...flatten(e.children)] : [e]));
}

/** A slide with the layout's placeholders copied onto it (ids from the mappings or generated). */
function slideFromLayout(deck: PresentationState, layoutName: string, objectId: string | undefined, mappings: Map<string, string>): SlidePage {
  const layout = deck.layouts.find((l) => l.layoutName === layoutName) as SlidePage;
  return {
    objectId: objectId ?? newObjectId(deck),
    layoutObjectId: layout.objectId,
    masterObjectId: layout.masterObjectId,
    elements: layout.elements.map((element) => {
      const source = element as Extract<SlideElement, { kind: 'shape' }>;
      const placeholder = source.placeholder as { type: string; index?: number };
      const key = `${placeholder.type}:${placeholder.index ?? 0}`;
      return {
        ...source,
        objectId: mappings.get(key) ?? mappings.get(source.objectId) ?? newObjectId(deck),
        text: '',
        placeholder: { ...placeholder, parentObjectId: source.objectId },
      };
    }),
  };
}

// ---- rendering ------------------------------------------------------------------------------

const emu = (magnitude: number): Json => ({ magnitude, unit: 'EMU' });

function renderPresentation(deck: PresentationState): Json {
  return {
    presentationId: deck.presentationId,
    pageSize: { width: emu(PAGE_WIDTH), height: emu(PAGE_HEIGHT) },
    slides: deck.slides.map((slide) => ({
      objectId: slide.objectId,
      pageElements: slide.elements.map(renderElement),
      slideProperties: { layoutObjectId: slide.layoutObjectId, masterObjectId: slide.masterObjectId },
      pageProperties: { pageBackgroundFill: { propertyState: 'INHERIT' } },
    })),
    title: deck.title,
    masters: deck.masters.map((master) => ({
      objectId: master.objectId,
      pageType: 'MASTER',
      pageElements: master.elements.map(renderElement),
      masterProperties: { displayName: master.displayName },
    })),
    layouts: deck.layouts.map((layout) => ({
      objectId: layout.objectId,
      pageType: 'LAYOUT',
      pageElements: layout.elements.map(renderElement),
      layoutProperties: { masterObjectId: layout.masterObjectId, name: layout.layoutName, displayName: layout.displayName },
    })),
    locale: deck.locale,
    revisionId: revisionId(deck),
  };
}

function renderElement(element: SlideElement): Json {
  const out: Json = {
    objectId: element.objectId,
    size: { width: emu(element.w), height: emu(element.h) },
    transform: { scaleX: 1, scaleY: 1, ...(element.x ? { translateX: element.x } : {}), ...(element.y ? { translateY: element.y } : {}), unit: 'EMU' },
  };
  switch (element.kind) {
    case 'shape':
      out.shape = {
        shapeType: element.shapeType,
        ...(element.text === '' ? {} : { text: renderText(element.text) }),
        shapeProperties: { autofit: { autofitType: 'NONE' } },
        ...(element.placeholder ? { placeholder: element.placeholder } : {}),
      };
      break;
    case 'image':
      out.image = { contentUrl: element.contentUrl, imageProperties: {}, ...(element.sourceUrl ? { sourceUrl: element.sourceUrl } : {}) };
      break;
    case 'table':
      out.table = {
        rows: element.cells.length,
        columns: element.cells[0]?.length ?? 0,
        tableRows: element.cells.map((row, r) => ({
          rowHeight: emu(Math.round(element.h / element.cells.length)),
          tableCells: row.map((text, c) => ({
            location: { ...(r ? { rowIndex: r } : {}), ...(c ? { columnIndex: c } : {}) },
            rowSpan: 1,
            columnSpan: 1,
            ...(text === '' ? {} : { text: renderText(text) }),
          })),
        })),
        tableColumns: (element.cells[0] ?? []).map(() => ({ columnWidth: emu(Math.round(element.w / (element.cells[0]?.length ?? 1))) })),
      };
      break;
    case 'group':
      out.elementGroup = { children: element.children.map(renderElement) };
      break;
  }
  return out;
}

/** Text as the API gives it: per paragraph a marker and a run, indices in UTF-16 units, 0 omitted. */
function renderText(text: string): Json {
  const textElements: Json[] = [];
  let at = 0;
  for (const paragraph of `${text}\n`.split(/(?<=\n)/)) {
    const range = { ...(at ? { startIndex: at } : {}), endIndex: at + paragraph.length };
    textElements.push({ ...range, paragraphMarker: { style: { direction: 'LEFT_TO_RIGHT' } } });
    textElements.push({ ...range, textRun: { content: paragraph, style: {} } });
    at += paragraph.length;
  }
  return { textElements };
}

// ---- batchUpdate ----------------------------------------------------------------------------

type Found = { element: SlideElement; slide: SlidePage; siblings: SlideElement[] };

function applyRequest(deck: PresentationState, request: unknown, where: string): Json {
  const { kind, body, at } = requestKind(request, where, REQUEST_KINDS);
  const fail = (message: string): never => {
    throw new GoogleApiError(400, `Invalid ${at}: ${message}`);
  };
  const notFound = (id: unknown): never => fail(`The object (${String(id)}) could not be found.`);
  const slideOf = (id: unknown): SlidePage => deck.slides.find((s) => s.objectId === id) ?? notFound(id);
  const elementOf = (id: unknown): Found => {
    for (const slide of deck.slides) {
      const search = (siblings: SlideElement[]): Found | undefined => {
        for (const element of siblings) {
          if (element.objectId === id) return { element, slide, siblings };
          const inner = element.kind === 'group' ? search(element.children) : undefined;
          if (inner) return inner;
        }
        return undefined;
      };
      const found = search(slide.elements);
      if (found) return found;
    }
    return notFound(id);
  };
  const exists = (id: string): boolean =>
    [...deck.slides, ...deck.layouts, ...deck.masters].some((page) => page.objectId === id || flatten(page.elements).some((e) => e.objectId === id));
  const freshId = (id: unknown): string => {
    if (id === undefined) return newObjectId(deck);
    if (typeof id !== 'string' || !/^[A-Za-z0-9_][A-Za-z0-9_\-:]{4,49}$/.test(id)) {
      fail(`The object ID (${String(id)}) must be 5 to 50 characters from [a-zA-Z0-9_-:] and must not start with '-' or ':'.`);
    }
    if (exists(id as string)) fail(`The object ID (${String(id)}) should be unique among all pages and page elements.`);
    return id as string;
  };
  const placeOn = (props: unknown): { slide: SlidePage; x: number; y: number; w: number; h: number } => {
    const p = isRecord(props) ? props : {};
    requireFields(p, ['pageObjectId'], `${at}.elementProperties`);
    const slide = slideOf(p.pageObjectId);
    const size = isRecord(p.size) ? p.size : {};
    const transform = isRecord(p.transform) ? p.transform : {};
    const magnitude = (d: unknown, fallback: number): number => (isRecord(d) && typeof d.magnitude === 'number' ? (d.unit === 'PT' ? d.magnitude * 12700 : d.magnitude) : fallback);
    const scale = transform.unit === 'PT' ? 12700 : 1;
    return {
      slide,
      x: Number(transform.translateX ?? 0) * scale,
      y: Number(transform.translateY ?? 0) * scale,
      w: magnitude(size.width, 3_000_000),
      h: magnitude(size.height, 3_000_000),
    };
  };
  /** The text a request edits: a shape's, or a table cell's with `cellLocation`. */
  const textOf = (): { get: () => string; set: (text: string) => void } => {
    requireFields(body, ['objectId'], at);
    const { element } = elementOf(body.objectId);
    if (element.kind === 'shape') {
      if (body.cellLocation !== undefined) fail(`The object (${element.objectId}) is not a table.`);
      return { get: () => element.text, set: (text) => (element.text = text) };
    }
    if (element.kind === 'table') {
      const location = isRecord(body.cellLocation) ? body.cellLocation : fail('cellLocation is required for a table.');
      const row = Number(location.rowIndex ?? 0);
      const column = Number(location.columnIndex ?? 0);
      const cells = element.cells;
      if (row >= cells.length || column >= (cells[0]?.length ?? 0)) fail(`The cell location (${row}, ${column}) is out of the table's bounds.`);
      return { get: () => cells[row]?.[column] ?? '', set: (text) => ((cells[row] as string[])[column] = text) };
    }
    return fail(`The object (${element.objectId}) does not allow text editing.`);
  };

  switch (kind) {
    case 'createSlide': {
      const objectId = freshId(body.objectId);
      const reference = isRecord(body.slideLayoutReference) ? body.slideLayoutReference : { predefinedLayout: 'BLANK' };
      let layoutName: string;
      if (reference.layoutId !== undefined) {
        if (reference.predefinedLayout !== undefined) fail("oneof field 'kind' is already set. Cannot set 'predefinedLayout'");
        layoutName = deck.layouts.find((l) => l.objectId === reference.layoutId)?.layoutName ?? fail(`The layout (${String(reference.layoutId)}) could not be found.`);
      } else {
        const predefined = String(reference.predefinedLayout ?? 'BLANK');
        if (!(predefined in LAYOUTS))
          throw new GoogleApiError(
            400,
            `Invalid value at '${at}.slide_layout_reference.predefined_layout' (type.googleapis.com/google.apps.slides.v1.PredefinedLayout), "${predefined}"`,
          );
        layoutName = predefined;
      }
      const index = body.insertionIndex === undefined ? deck.slides.length : Number(body.insertionIndex);
      if (!Number.isInteger(index) || index < 0 || index > deck.slides.length)
        fail(`The insertion index ${String(body.insertionIndex)} must be between 0 and ${deck.slides.length}.`);
      const mappings = new Map<string, string>();
      for (const mapping of Array.isArray(body.placeholderIdMappings) ? body.placeholderIdMappings : []) {
        const m = isRecord(mapping) ? mapping : {};
        const target = freshId(m.objectId);
        const placeholder = isRecord(m.layoutPlaceholder) ? m.layoutPlaceholder : undefined;
        const key = placeholder ? `${String(placeholder.type)}:${Number(placeholder.index ?? 0)}` : String(m.layoutPlaceholderObjectId);
        const layout = deck.layouts.find((l) => l.layoutName === layoutName) as SlidePage;
        const known = layout.elements.some((e) => e.kind === 'shape' && (placeholder ? `${e.placeholder?.type}:${e.placeholder?.index ?? 0}` === key : e.objectId === key));
        if (!known) fail(`The placeholder (${key}) could not be found on the layout ${layoutName}.`);
        mappings.set(key, target);
      }
      deck.slides.splice(index, 0, slideFromLayout(deck, layoutName, objectId, mappings));
      return { createSlide: { objectId } };
    }
    case 'deleteObject': {
      requireFields(body, ['objectId'], at);
      const slide = deck.slides.find((s) => s.objectId === body.objectId);
      if (slide) deck.slides.splice(deck.slides.indexOf(slide), 1);
      else {
        const { element, siblings } = elementOf(body.objectId);
        siblings.splice(siblings.indexOf(element), 1);
      }
      return {};
    }
    case 'updateSlidesPosition': {
      requireFields(body, ['slideObjectIds'], at);
      const ids = Array.isArray(body.slideObjectIds) ? body.slideObjectIds : [];
      const moving = ids.map((id) => slideOf(id));
      const index = Number(body.insertionIndex ?? 0);
      if (index < 0 || index > deck.slides.length) fail(`The insertion index ${index} must be between 0 and ${deck.slides.length}.`);
      // The index counts slides before the move; slides that move from before it shift it down.
      const before = deck.slides.slice(0, index).filter((s) => moving.includes(s)).length;
      deck.slides = deck.slides.filter((s) => !moving.includes(s));
      deck.slides.splice(index - before, 0, ...moving);
      return {};
    }
    case 'duplicateObject': {
      requireFields(body, ['objectId'], at);
      const ids = isRecord(body.objectIds) ? body.objectIds : {};
      const copy = <T extends SlideElement | SlidePage>(item: T): T => {
        const clone = structuredClone(item) as T;
        const rename = (e: { objectId: string }): void => {
          e.objectId = ids[e.objectId] !== undefined ? freshId(ids[e.objectId]) : newObjectId(deck);
        };
        rename(clone);
        const elements = 'elements' in clone ? clone.elements : [clone as SlideElement];
        for (const e of flatten(elements)) if (e !== clone) rename(e);
        return clone;
      };
      const slide = deck.slides.find((s) => s.objectId === body.objectId);
      if (slide) {
        const clone = copy(slide);
        deck.slides.splice(deck.slides.indexOf(slide) + 1, 0, clone);
        return { duplicateObject: { objectId: clone.objectId } };
      }
      const { element, siblings } = elementOf(body.objectId);
      const clone = copy(element);
      siblings.splice(siblings.indexOf(element) + 1, 0, clone);
      return { duplicateObject: { objectId: clone.objectId } };
    }
    case 'createShape': {
      requireFields(body, ['shapeType', 'elementProperties'], at);
      const shapeType = String(body.shapeType);
      if (!/^[A-Z][A-Z0-9_]*$/.test(shapeType) || shapeType === 'TYPE_UNSPECIFIED')
        throw new GoogleApiError(400, `Invalid value at '${at}.shape_type' (type.googleapis.com/google.apps.slides.v1.Shape.Type), "${shapeType}"`);
      const objectId = freshId(body.objectId);
      const { slide, ...box } = placeOn(body.elementProperties);
      slide.elements.push({ kind: 'shape', objectId, shapeType, text: '', ...box });
      return { createShape: { objectId } };
    }
    case 'createImage': {
      requireFields(body, ['url', 'elementProperties'], at);
      if (!/^https?:\/\//.test(String(body.url)))
        fail(`There was a problem retrieving the image. The provided image should be publicly accessible, within size limit, and in supported formats.`);
      const objectId = freshId(body.objectId);
      const { slide, ...box } = placeOn(body.elementProperties);
      slide.elements.push({ kind: 'image', objectId, contentUrl: `https://lh3.googleusercontent.com/fake-${objectId}=s1600`, sourceUrl: String(body.url), ...box });
      return { createImage: { objectId } };
    }
    case 'createTable': {
      requireFields(body, ['elementProperties', 'rows', 'columns'], at);
      const rows = Number(body.rows);
      const columns = Number(body.columns);
      if (!(rows >= 1 && columns >= 1)) fail('A table needs at least one row and one column.');
      const objectId = freshId(body.objectId);
      const { slide, ...box } = placeOn(body.elementProperties);
      slide.elements.push({ kind: 'table', objectId, cells: Array.from({ length: rows }, () => new Array<string>(columns).fill('')), ...box });
      return { createTable: { objectId } };
    }
    case 'insertText': {
      if (typeof body.text !== 'string') fail('text is required.');
      const target = textOf();
      const current = target.get();
      const index = Number(body.insertionIndex ?? 0);
      if (!Number.isInteger(index) || index < 0 || index > current.length) fail(`The insertion index (${index}) must be within the existing text [0, ${current.length}].`);
      target.set(current.slice(0, index) + (body.text as string) + current.slice(index));
      return {};
    }
    case 'deleteText': {
      requireFields(body, ['textRange'], at);
      const target = textOf();
      const current = target.get();
      const range = isRecord(body.textRange) ? body.textRange : {};
      const type = range.type ?? 'ALL';
      let start = 0;
      let end = current.length;
      if (type === 'FIXED_RANGE' || type === 'FROM_START_INDEX') {
        if (range.startIndex === undefined) fail('startIndex is required for this range type.');
        start = Number(range.startIndex);
        if (type === 'FIXED_RANGE') {
          if (range.endIndex === undefined) fail('endIndex is required for FIXED_RANGE.');
          end = Number(range.endIndex);
        }
      } else if (type !== 'ALL') throw new GoogleApiError(400, `Invalid value at '${at}.text_range.type', "${String(type)}"`);
      if (start < 0 || end > current.length + 1 || start > end) fail(`The text range [${start}, ${end}) is out of bounds of the text [0, ${current.length}].`);
      target.set(current.slice(0, start) + current.slice(Math.min(end, current.length)));
      return {};
    }
    case 'replaceAllText': {
      requireFields(body, ['containsText'], at);
      const contains = isRecord(body.containsText) ? body.containsText : {};
      requireFields(contains, ['text'], `${at}.containsText`);
      const needle = String(contains.text);
      const pattern = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), contains.matchCase === true ? 'g' : 'gi');
      const pages = Array.isArray(body.pageObjectIds) && body.pageObjectIds.length > 0 ? body.pageObjectIds.map((id) => slideOf(id)) : deck.slides;
      const replacement = String(body.replaceText ?? '');
      let occurrences = 0;
      const replace = (text: string): string =>
        text.replace(pattern, () => {
          occurrences += 1;
          return replacement;
        });
      for (const slide of pages) {
        for (const element of flatten(slide.elements)) {
          if (element.kind === 'shape') element.text = replace(element.text);
          if (element.kind === 'table') element.cells = element.cells.map((row) => row.map(replace));
        }
      }
      return { replaceAllText: occurrences ? { occurrencesChanged: occurrences } : {} };
    }
    default: {
      // Accepted but not modelled: the objects it names must still exist.
      for (const key of ['objectId', 'pageObjectId', 'tableObjectId']) if (typeof body[key] === 'string' && !exists(body[key] as string)) notFound(body[key]);
      for (const id of Array.isArray(body.objectIds) ? body.objectIds : Array.isArray(body.pageObjectIds) ? body.pageObjectIds : []) if (!exists(String(id))) notFound(id);
      return {};
    }
  }
}

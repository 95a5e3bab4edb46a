import { randomBytes } from 'node:crypto';
import { GoogleApiError, type FakeGoogleApi } from '../fake-google-api';
import { enumQuery, rejectUnknownQuery } from './api-checks';

const HOST = 'docs.googleapis.com';

type Style = Record<string, unknown>;

/** One UTF-16 code unit of the body (Docs indexes count code units); a '\n' ends a paragraph and carries its style. */
interface DocChar {
  c: string;
  text: Style;
  paragraph?: Style;
}

export interface FakeDocument {
  readonly documentId: string;
  title: string;
  revisionId: string;
  /** The body after the section break at index 0: the character at index i is chars[i - 1]. */
  chars: DocChar[];
}

export interface DocsFake {
  readonly documents: Map<string, FakeDocument>;
  readonly seeded: { readonly brief: string };
  /** Adds a document whose body is `text` (one paragraph per line, NORMAL_TEXT); returns its id. */
  add(title: string, text: string): string;
  /** The body's plain text (index 1 onwards), final newline included. */
  text(documentId: string): string;
  /** The text style of the character at a Docs index. */
  textStyleAt(documentId: string, index: number): Style;
  /** The paragraph style of the paragraph holding a Docs index. */
  paragraphStyleAt(documentId: string, index: number): Style;
}

const TEXT_STYLE_FIELDS = [
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'smallCaps',
  'backgroundColor',
  'foregroundColor',
  'fontSize',
  'weightedFontFamily',
  'baselineOffset',
  'link',
];
const PARAGRAPH_STYLE_FIELDS = [
  'namedStyleType',
  'alignment',
  'lineSpacing',
  'direction',
  'spacingMode',
  'spaceAbove',
  'spaceBelow',
  'borderBetween',
  'borderTop',
  'borderBottom',
  'borderLeft',
  'borderRight',
  'indentFirstLine',
  'indentStart',
  'indentEnd',
  'keepLinesTogether',
  'keepWithNext',
  'avoidWidowAndOrphan',
  'shading',
  'pageBreakBefore',
];
const NAMED_STYLES = ['NORMAL_TEXT', 'TITLE', 'SUBTITLE', 'HEADING_1', 'HEADING_2', 'HEADING_3', 'HEADING_4', 'HEADING_5', 'HEADING_6'];
/** Request kinds of the Docs reference this fake does not model; anything else unknown is not a request at all. */
const UNMODELLED_REQUESTS = [
  'createParagraphBullets',
  'deleteParagraphBullets',
  'createNamedRange',
  'deleteNamedRange',
  'insertInlineImage',
  'insertTable',
  'insertTableRow',
  'insertTableColumn',
  'deleteTableRow',
  'deleteTableColumn',
  'insertPageBreak',
  'deletePositionedObject',
  'updateTableColumnProperties',
  'updateTableCellStyle',
  'updateTableRowStyle',
  'replaceImage',
  'updateDocumentStyle',
  'mergeTableCells',
  'unmergeTableCells',
  'createHeader',
  'createFooter',
  'createFootnote',
  'replaceNamedRangeContent',
  'updateSectionStyle',
  'insertSectionBreak',
  'deleteHeader',
  'deleteFooter',
  'pinTableHeaderRows',
  'addDocumentTab',
  'deleteTab',
  'updateDocumentTabProperties',
  'insertPerson',
  'insertDate',
];

/**
 * A fake of the Google Docs API v1 (documents.get, documents.create, documents.batchUpdate), with
 * each document's body held as styled characters so indexes behave as Docs' do: index 0 is the
 * section break, paragraphs end in '\n', text can be inserted before the body's last newline but
 * not after it, and that newline cannot be deleted. batchUpdate is atomic, checks each request as
 * the reference does ("Invalid requests[i].insertText: ..."), answers `replies` in order and moves
 * the revision; `writeControl.requiredRevisionId` is honoured. Unknown ids are 404.
 */
export function registerDocsRoutes(api: FakeGoogleApi): DocsFake {
  const documents = new Map<string, FakeDocument>();

  const create = (title: string, paragraphs: readonly { text: string; paragraph?: Style; runs?: readonly [string, Style][] }[] = []): FakeDocument => {
    const chars: DocChar[] = [];
    for (const p of paragraphs) {
      const runs = p.runs ?? [[p.text, {}]];
      for (const [text, style] of runs) for (const c of text.split('')) chars.push({ c, text: { ...style } });
      chars.push({ c: '\n', text: {}, paragraph: { ...p.paragraph } });
    }
    if (chars.length === 0) chars.push({ c: '\n', text: {}, paragraph: {} });
    const doc: FakeDocument = { documentId: newDocumentId(), title, revisionId: newRevisionId(), chars };
    documents.set(doc.documentId, doc);
    return doc;
  };

  const brief = create('Project brief', [
    { text: 'Project brief', paragraph: { namedStyleType: 'TITLE' } },
    { text: 'The launch is planned for May.' },
    {
      text: '',
      runs: [
        ['Owner:', { bold: true }],
        [' Alex. Reviewer: Kim. Alex signs off.', {}],
      ],
    },
  ]);

  const find = (id: string): FakeDocument => {
    const doc = documents.get(id);
    if (!doc) throw new GoogleApiError(404, 'Requested entity was not found.', 'NOT_FOUND');
    return doc;
  };

  api.route('GET', HOST, '/v1/documents/{documentId}', (req) => {
    const doc = find(req.params.documentId as string);
    rejectUnknownQuery(req, ['suggestionsViewMode', 'includeTabsContent']);
    const mode = enumQuery(
      req,
      'suggestionsViewMode',
      ['DEFAULT_FOR_CURRENT_ACCESS', 'SUGGESTIONS_INLINE', 'PREVIEW_SUGGESTIONS_ACCEPTED', 'PREVIEW_WITHOUT_SUGGESTIONS'],
      'DEFAULT_FOR_CURRENT_ACCESS',
    );
    enumQuery(req, 'includeTabsContent', ['true', 'false'], 'false');
    return { json: render(doc, mode === 'DEFAULT_FOR_CURRENT_ACCESS' ? 'SUGGESTIONS_INLINE' : mode) };
  });

  api.route('POST', HOST, '/v1/documents', (req) => {
    rejectUnknownQuery(req, []);
    // The reference: only the title is used; any content in the request is ignored.
    const body = req.json<{ title?: unknown }>();
    if (body.title !== undefined && typeof body.title !== 'string') throw new GoogleApiError(400, "Invalid value at 'title': expected a string.", 'INVALID_ARGUMENT');
    const doc = create(typeof body.title === 'string' && body.title !== '' ? body.title : 'Untitled document');
    return { json: render(doc, 'SUGGESTIONS_INLINE') };
  });

  api.route('POST', HOST, '/v1/documents/{documentId}:batchUpdate', (req) => {
    rejectUnknownQuery(req, []);
    const doc = find(req.params.documentId as string);
    const body = req.json<{ requests?: unknown; writeControl?: { requiredRevisionId?: string; targetRevisionId?: string } }>();
    if (!Array.isArray(body.requests)) throw new GoogleApiError(400, "Invalid JSON payload: 'requests' must be a list of requests.", 'INVALID_ARGUMENT');
    const required = body.writeControl?.requiredRevisionId;
    if (required !== undefined && required !== doc.revisionId) {
      throw new GoogleApiError(400, `The required revision ID '${required}' does not match the latest revision ID of the document.`, 'FAILED_PRECONDITION');
    }
    // Atomic: work on a copy and keep it only when every request applied.
    const chars = doc.chars.map((ch) => ({ ...ch }));
    const replies = body.requests.map((request, i) => apply(chars, request, i));
    if (body.requests.length > 0) {
      doc.chars = chars;
      doc.revisionId = newRevisionId();
    }
    return { json: { documentId: doc.documentId, replies, writeControl: { requiredRevisionId: doc.revisionId } } };
  });

  const indexOf = (documentId: string, index: number): DocChar => {
    const ch = find(documentId).chars[index - 1];
    if (!ch) throw new Error(`Index ${index} is outside the document.`);
    return ch;
  };
  return {
    documents,
    seeded: { brief: brief.documentId },
    add: (title, text) =>
      create(
        title,
        text
          .replace(/\n$/, '')
          .split('\n')
          .map((line) => ({ text: line })),
      ).documentId,
    text: (id) =>
      find(id)
        .chars.map((ch) => ch.c)
        .join(''),
    textStyleAt: (id, index) => indexOf(id, index).text,
    paragraphStyleAt: (id, index) => {
      const chars = find(id).chars;
      for (let i = index - 1; i < chars.length; i++) if (chars[i]?.c === '\n') return chars[i]?.paragraph ?? {};
      throw new Error(`Index ${index} is outside the document.`);
    },
  };
}

// ---- batchUpdate requests -----------------------------------------------------------------

function apply(chars: DocChar[], request: unknown, i: number): Record<string, unknown> {
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    throw new GoogleApiError(400, `Invalid value at 'requests[${i}]': expected a request object.`, 'INVALID_ARGUMENT');
  const kinds = Object.keys(request);
  for (const kind of kinds) {
    if (!['insertText', 'deleteContentRange', 'replaceAllText', 'updateTextStyle', 'updateParagraphStyle', ...UNMODELLED_REQUESTS].includes(kind)) {
      throw new GoogleApiError(400, `Invalid JSON payload received. Unknown name "${kind}" at 'requests[${i}]': Cannot find field.`, 'INVALID_ARGUMENT');
    }
  }
  if (kinds.length !== 1) throw new GoogleApiError(400, `Invalid requests[${i}]: exactly one kind of request must be set, found ${kinds.length}.`, 'INVALID_ARGUMENT');
  const kind = kinds[0] as string;
  const args = (request as Record<string, unknown>)[kind];
  if (typeof args !== 'object' || args === null) throw new GoogleApiError(400, `Invalid value at 'requests[${i}].${kind}': expected an object.`, 'INVALID_ARGUMENT');
  const fail = (message: string): never => {
    throw new GoogleApiError(400, `Invalid requests[${i}].${kind}: ${message}`, 'INVALID_ARGUMENT');
  };
  const a = args as Record<string, unknown>;
  const end = chars.length + 1; // the body's endIndex
  switch (kind) {
    case 'insertText':
      insertText(chars, a, end, fail);
      return {};
    case 'deleteContentRange': {
      const [start, stop] = range(a.range, end, fail);
      if (stop === end) fail('The range cannot include the newline character at the end of the segment.');
      chars.splice(start - 1, stop - start);
      return {};
    }
    case 'replaceAllText':
      return { replaceAllText: replaceAllText(chars, a, fail) };
    case 'updateTextStyle': {
      const [start, stop] = range(a.range, end, fail);
      const fields = fieldList(a.fields, TEXT_STYLE_FIELDS, fail);
      const style = (a.textStyle ?? {}) as Style;
      for (let k = start - 1; k < stop - 1; k++) (chars[k] as DocChar).text = merge((chars[k] as DocChar).text, style, fields);
      return {};
    }
    case 'updateParagraphStyle': {
      const [start, stop] = range(a.range, end, fail);
      const fields = fieldList(a.fields, PARAGRAPH_STYLE_FIELDS, fail);
      const style = (a.paragraphStyle ?? {}) as Style;
      if (style.namedStyleType !== undefined && !NAMED_STYLES.includes(style.namedStyleType as string)) fail(`Invalid namedStyleType '${String(style.namedStyleType)}'.`);
      // Every paragraph the range touches: from the one holding `start` to the one holding `stop - 1`.
      let k = start - 1;
      while (k < chars.length) {
        const ch = chars[k] as DocChar;
        if (ch.c === '\n') {
          ch.paragraph = merge(ch.paragraph ?? {}, style, fields);
          if (k >= stop - 2) break;
        }
        k++;
      }
      return {};
    }
    default:
      return fail(`this fake does not model '${kind}' requests.`);
  }
}

function insertText(chars: DocChar[], a: Record<string, unknown>, end: number, fail: (m: string) => never): void {
  if (typeof a.text !== 'string') fail("'text' is required.");
  const location = a.location as { index?: unknown; segmentId?: unknown } | undefined;
  const atEnd = a.endOfSegmentLocation as { segmentId?: unknown } | undefined;
  if ((location === undefined) === (atEnd === undefined)) fail('Exactly one of location and endOfSegmentLocation must be set.');
  const segment = (location ?? atEnd)?.segmentId;
  if (segment !== undefined && segment !== '') fail(`Segment with ID ${String(segment)} was not found.`);
  let index = end - 1;
  if (location) {
    if (!Number.isInteger(location.index)) fail('location.index is required.');
    index = location.index as number;
    if (index < 1) fail('The insertion index must be inside the bounds of an existing paragraph. You can still create new paragraphs by inserting newlines.');
    if (index >= end) fail(`Index ${index} must be less than the end index of the referenced segment, ${end}.`);
  }
  const text = (a.text as string).replace(/\r\n?/g, '\n');
  chars.splice(index - 1, 0, ...styled(chars, index - 1, text));
}

/** New characters take the text style before them (or after, at a paragraph start) and their paragraph's style. */
function styled(chars: readonly DocChar[], at: number, text: string): DocChar[] {
  const before = chars[at - 1];
  const textStyle = before && before.c !== '\n' ? before.text : (chars[at]?.text ?? {});
  let k = at;
  while (k < chars.length && chars[k]?.c !== '\n') k++;
  const paragraph = chars[k]?.paragraph ?? {};
  // split(''): Docs indexes count UTF-16 code units, so a character outside the BMP takes two.
  return text.split('').map((c) => (c === '\n' ? { c, text: { ...textStyle }, paragraph: { ...paragraph } } : { c, text: { ...textStyle } }));
}

function replaceAllText(chars: DocChar[], a: Record<string, unknown>, fail: (m: string) => never): Record<string, unknown> {
  const contains = a.containsText as { text?: unknown; matchCase?: unknown } | undefined;
  if (!contains || typeof contains.text !== 'string' || contains.text === '') fail('containsText.text must not be empty.');
  const wanted = (contains as { text: string }).text;
  const replacement = typeof a.replaceText === 'string' ? a.replaceText : '';
  const matchCase = contains?.matchCase === true;
  const norm = (s: string): string => (matchCase ? s : s.toLowerCase());
  let occurrences = 0;
  let from = 0;
  for (;;) {
    const hay = norm(chars.map((ch) => ch.c).join(''));
    const at = hay.indexOf(norm(wanted), from);
    if (at < 0) break;
    const style = (chars[at] as DocChar).text;
    const inserted = styled(chars, at, replacement).map((ch) => ({ ...ch, text: { ...style } }));
    chars.splice(at, wanted.length, ...inserted);
    from = at + inserted.length;
    occurrences++;
  }
  // proto3 JSON leaves out a zero count.
  return occurrences > 0 ? { occurrencesChanged: occurrences } : {};
}

function range(value: unknown, end: number, fail: (m: string) => never): [number, number] {
  const r = value as { startIndex?: unknown; endIndex?: unknown; segmentId?: unknown } | undefined;
  if (!r || typeof r !== 'object') fail("'range' is required.");
  const { startIndex, endIndex, segmentId } = r as { startIndex?: unknown; endIndex?: unknown; segmentId?: unknown };
  if (segmentId !== undefined && segmentId !== '') fail(`Segment with ID ${String(segmentId)} was not found.`);
  if (!Number.isInteger(startIndex) || !Number.isInteger(endIndex)) fail('range.startIndex and range.endIndex are required.');
  const start = startIndex as number;
  const stop = endIndex as number;
  if (start >= stop) fail('The range should not be empty.');
  if (start < 1) fail(`Index ${start} must be greater than or equal to 1.`);
  if (stop > end) fail(`Index ${stop - 1} must be less than the end index of the referenced segment, ${end}.`);
  return [start, stop];
}

function fieldList(value: unknown, known: readonly string[], fail: (m: string) => never): string[] {
  if (typeof value !== 'string' || value.trim() === '') fail("At least one field must be listed in 'fields'. (Use '*' to indicate all fields.)");
  const fields = (value as string).split(',').map((f) => f.trim());
  if (fields.includes('*')) return [...known];
  for (const f of fields) if (!known.includes(f)) fail(`Invalid field: ${f}`);
  return fields;
}

/** The named fields are set from `update`, or cleared when `update` leaves them out. */
function merge(current: Style, update: Style, fields: readonly string[]): Style {
  const next = { ...current };
  for (const f of fields) {
    if (update[f] === undefined) delete next[f];
    else next[f] = update[f];
  }
  return next;
}

// ---- the Document resource ----------------------------------------------------------------

function render(doc: FakeDocument, suggestionsViewMode: string): Record<string, unknown> {
  const content: Record<string, unknown>[] = [
    { endIndex: 1, sectionBreak: { sectionStyle: { columnSeparatorStyle: 'NONE', contentDirection: 'LEFT_TO_RIGHT', sectionType: 'CONTINUOUS' } } },
  ];
  let start = 1;
  let paragraph: DocChar[] = [];
  doc.chars.forEach((ch, k) => {
    paragraph.push(ch);
    if (ch.c !== '\n') return;
    const elements: Record<string, unknown>[] = [];
    let runStart = start;
    let run = '';
    let runStyle = '';
    const flush = (): void => {
      if (run === '') return;
      elements.push({ startIndex: runStart, endIndex: runStart + run.length, textRun: { content: run, textStyle: JSON.parse(runStyle) } });
      runStart += run.length;
      run = '';
    };
    for (const pc of paragraph) {
      const style = JSON.stringify(pc.text);
      if (style !== runStyle) flush();
      runStyle = style;
      run += pc.c;
    }
    flush();
    const end = k + 2;
    content.push({
      startIndex: start,
      endIndex: end,
      paragraph: { elements, paragraphStyle: { namedStyleType: 'NORMAL_TEXT', direction: 'LEFT_TO_RIGHT', ...ch.paragraph } },
    });
    start = end;
    paragraph = [];
  });
  return {
    documentId: doc.documentId,
    title: doc.title,
    body: { content },
    documentStyle: {
      background: { color: {} },
      pageNumberStart: 1,
      marginTop: { magnitude: 72, unit: 'PT' },
      marginBottom: { magnitude: 72, unit: 'PT' },
      marginRight: { magnitude: 72, unit: 'PT' },
      marginLeft: { magnitude: 72, unit: 'PT' },
      pageSize: { height: { magnitude: 792, unit: 'PT' }, width: { magnitude: 612, unit: 'PT' } },
    },
    namedStyles: { styles: NAMED_STYLES.map((namedStyleType) => ({ namedStyleType, textStyle: {}, paragraphStyle: { namedStyleType, direction: 'LEFT_TO_RIGHT' } })) },
    revisionId: doc.revisionId,
    suggestionsViewMode,
  };
}

function newDocumentId(): string {
  return `1${randomBytes(33).toString('base64url')}`;
}

function newRevisionId(): string {
  return `ALBJ4L${randomBytes(24).toString('base64url')}`;
}

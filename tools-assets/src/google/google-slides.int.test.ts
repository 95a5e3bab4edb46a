import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { registerSlidesRoutes, type SlidesFake } from '../testing/fake-google/slides';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';
import { failure, ok, onlyRequest as request } from './workspace-test-helpers';

const HOST = 'slides.googleapis.com';
let h: ToolHarness;
let slides: SlidesFake;
let deck: string;

beforeAll(async () => {
  h = await startToolHarness({ files: ['google_slides'] });
  slides = registerSlidesRoutes(h.api);
  deck = slides.seeded.review;
});
afterAll(async () => {
  expect(h.api.unmatched).toEqual([]);
  await h.close();
});
beforeEach(() => h.api.clearRequests());

const onlyRequest = () => request(h, HOST);

const slideIds = () => slides.render(deck).slides as { objectId: string }[];

describe('J8 google_slides: reading', () => {
  it('slides_get: GET the presentation; returns slides with element ids, types, placeholders and text, the page size in points and the layouts', async () => {
    const result = ok(await h.call('slides_get', { presentation_id: deck }));
    const req = onlyRequest();
    expect(req.method).toBe('GET');
    expect(req.path).toBe(`/v1/presentations/${deck}`);
    expect(req.query).toEqual({});
    expect(result).toMatchObject({
      presentationId: deck,
      title: 'Quarterly Review',
      locale: 'en',
      url: `https://docs.google.com/presentation/d/${deck}/edit`,
      pageSizePoints: { width: 720, height: 405 },
      slideCount: 4,
    });
    expect(result.revisionId).toEqual(expect.any(String));
    expect(result.slides[0]).toEqual({
      objectId: 'g_intro',
      index: 0,
      layoutObjectId: 'g_layout_title',
      elements: [
        { objectId: 'g_intro_centered_title', type: 'shape', shapeType: 'TEXT_BOX', placeholder: 'CENTERED_TITLE', text: 'Quarterly Review' },
        { objectId: 'g_intro_subtitle', type: 'shape', shapeType: 'TEXT_BOX', placeholder: 'SUBTITLE', text: 'Q3 2024 · Finance team' },
      ],
    });
    expect(result.slides[2].elements).toEqual([
      { objectId: 'g_numbers_title', type: 'shape', shapeType: 'TEXT_BOX', placeholder: 'TITLE', text: 'Numbers by region' },
      { objectId: 'g_numbers_table', type: 'table', rows: 3, columns: 2 },
      { objectId: 'g_numbers_chart', type: 'image' },
    ]);
    expect(result.slides[3].elements).toEqual([
      { objectId: 'g_closing_group', type: 'group', children: ['g_closing_frame', 'g_closing_text'] },
      { objectId: 'g_closing_frame', type: 'shape', shapeType: 'ROUND_RECTANGLE' },
      { objectId: 'g_closing_text', type: 'shape', shapeType: 'TEXT_BOX', text: 'Questions?' },
    ]);
    expect(result.layouts).toHaveLength(11);
    expect(result.layouts).toContainEqual({ objectId: 'g_layout_title_and_body', name: 'TITLE_AND_BODY', displayName: 'Title and body' });
  });

  it('slides_get: an unknown presentation is a 404; a missing id is a validation error', async () => {
    expect(failure(await h.call('slides_get', { presentation_id: 'no-such-deck' }))).toMatch(/^Slides API error \(404\): .*Requested entity was not found/);
    expect(await h.call('slides_get', {})).toMatchObject({ status: 'error', errorType: 'validation_error' });
  });

  it('slides_get_text: GET with a slides field mask; per slide the shape texts with placeholders, table cells and grouped text', async () => {
    const result = ok(await h.call('slides_get_text', { presentation_id: deck }));
    const req = onlyRequest();
    expect(req.method).toBe('GET');
    expect(req.path).toBe(`/v1/presentations/${deck}`);
    expect(req.query).toEqual({ fields: 'presentationId,title,slides(objectId,pageElements)' });
    expect(result).toEqual({
      presentationId: deck,
      title: 'Quarterly Review',
      slides: [
        {
          slideId: 'g_intro',
          index: 0,
          texts: [
            { objectId: 'g_intro_centered_title', placeholder: 'CENTERED_TITLE', text: 'Quarterly Review' },
            { objectId: 'g_intro_subtitle', placeholder: 'SUBTITLE', text: 'Q3 2024 · Finance team' },
          ],
        },
        {
          slideId: 'g_highlights',
          index: 1,
          texts: [
            { objectId: 'g_highlights_title', placeholder: 'TITLE', text: 'Highlights' },
            { objectId: 'g_highlights_body', placeholder: 'BODY', text: 'Revenue up 12%\nChurn down to 3%\nTwo new regions' },
          ],
        },
        {
          slideId: 'g_numbers',
          index: 2,
          texts: [
            { objectId: 'g_numbers_title', placeholder: 'TITLE', text: 'Numbers by region' },
            {
              objectId: 'g_numbers_table',
              table: [
                ['Region', 'Revenue'],
                ['EMEA', '1.2M'],
                ['APAC', '0.8M'],
              ],
            },
          ],
        },
        { slideId: 'g_closing', index: 3, texts: [{ objectId: 'g_closing_text', text: 'Questions?' }] },
      ],
    });
    expect(failure(await h.call('slides_get_text', { presentation_id: 'missing-deck' }))).toMatch(/^Slides API error \(404\)/);
  });

  it('slides_list_slides: GET with a field mask; objectId, index, layoutObjectId and top-level element count per slide', async () => {
    const result = ok(await h.call('slides_list_slides', { presentation_id: deck }));
    const req = onlyRequest();
    expect(req.method).toBe('GET');
    expect(req.path).toBe(`/v1/presentations/${deck}`);
    expect(req.query).toEqual({ fields: 'slides(objectId,slideProperties(layoutObjectId),pageElements(objectId))' });
    expect(result).toEqual([
      { objectId: 'g_intro', index: 0, layoutObjectId: 'g_layout_title', pageElementCount: 2 },
      { objectId: 'g_highlights', index: 1, layoutObjectId: 'g_layout_title_and_body', pageElementCount: 2 },
      { objectId: 'g_numbers', index: 2, layoutObjectId: 'g_layout_title_only', pageElementCount: 3 },
      { objectId: 'g_closing', index: 3, layoutObjectId: 'g_layout_blank', pageElementCount: 1 },
    ]);
    expect(failure(await h.call('slides_list_slides', { presentation_id: 'missing-deck' }))).toMatch(/^Slides API error \(404\)/);
  });
});

describe('J8 google_slides: editing', () => {
  it('slides_create: POST /presentations {title}; the new deck has one title slide with two placeholders and can be read back', async () => {
    const result = ok(await h.call('slides_create', { title: 'Launch plan' }));
    const req = onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/presentations');
    expect(req.json()).toEqual({ title: 'Launch plan' });
    expect(result).toEqual({
      presentationId: expect.stringMatching(/^[A-Za-z0-9_-]{44}$/),
      title: 'Launch plan',
      url: `https://docs.google.com/presentation/d/${result.presentationId}/edit`,
      slides: [
        {
          objectId: expect.any(String),
          index: 0,
          layoutObjectId: 'g_layout_title',
          elements: [
            { objectId: expect.any(String), type: 'shape', shapeType: 'TEXT_BOX', placeholder: 'CENTERED_TITLE' },
            { objectId: expect.any(String), type: 'shape', shapeType: 'TEXT_BOX', placeholder: 'SUBTITLE' },
          ],
        },
      ],
    });
    expect(ok(await h.call('slides_get', { presentation_id: result.presentationId })).title).toBe('Launch plan');
    expect(await h.call('slides_create', {})).toMatchObject({ status: 'error', errorType: 'validation_error' });
  });

  it('slides_add_slide: createSlide with the predefined layout and insertion index; the slide appears there with the layout placeholders', async () => {
    const result = ok(await h.call('slides_add_slide', { presentation_id: deck, layout: 'SECTION_HEADER', insertion_index: 1 }));
    const req = onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/v1/presentations/${deck}:batchUpdate`);
    expect(req.json()).toEqual({ requests: [{ createSlide: { slideLayoutReference: { predefinedLayout: 'SECTION_HEADER' }, insertionIndex: 1 } }] });
    expect(result).toEqual({ presentationId: deck, slideId: expect.stringMatching(/^SLIDES_API\d+_\d+$/), layout: 'SECTION_HEADER', insertionIndex: 1 });
    const added = slides.render(deck).slides as { objectId: string; slideProperties: { layoutObjectId: string }; pageElements: { shape: { placeholder: { type: string } } }[] }[];
    expect(added[1]!.objectId).toBe(result.slideId);
    expect(added[1]!.slideProperties.layoutObjectId).toBe('g_layout_section_header');
    expect(added[1]!.pageElements.map((e) => e.shape.placeholder.type)).toEqual(['TITLE']);

    h.api.clearRequests();
    const appended = ok(await h.call('slides_add_slide', { presentation_id: deck }));
    expect(onlyRequest().json()).toEqual({ requests: [{ createSlide: { slideLayoutReference: { predefinedLayout: 'TITLE_AND_BODY' } } }] });
    expect(slideIds().at(-1)!.objectId).toBe(appended.slideId);
    expect(slideIds()).toHaveLength(6);
  });

  it('slides_add_slide: an unknown layout or a negative index is a validation error; an index past the end is refused by the API', async () => {
    expect(await h.call('slides_add_slide', { presentation_id: deck, layout: 'TWO_BY_TWO' })).toMatchObject({ status: 'error', errorType: 'validation_error' });
    expect(await h.call('slides_add_slide', { presentation_id: deck, insertion_index: -1 })).toMatchObject({ status: 'error', errorType: 'validation_error' });
    expect(failure(await h.call('slides_add_slide', { presentation_id: deck, insertion_index: 99 }))).toMatch(
      /^Slides API error \(400\): .*requests\[0\]\.createSlide: The insertion index 99/,
    );
    expect(failure(await h.call('slides_add_slide', { presentation_id: 'missing-deck' }))).toMatch(/^Slides API error \(404\)/);
  });

  it('slides_batch_update: insertText, replaceAllText and createShape apply in order; replies come back; a bad request rolls the batch back', async () => {
    const requests = [
      { insertText: { objectId: 'g_highlights_title', text: 'Key ', insertionIndex: 0 } },
      { replaceAllText: { containsText: { text: 'revenue', matchCase: false }, replaceText: 'Sales' } },
      {
        createShape: {
          objectId: 'note_box_1',
          shapeType: 'TEXT_BOX',
          elementProperties: { pageObjectId: 'g_closing', size: { width: { magnitude: 200, unit: 'PT' }, height: { magnitude: 50, unit: 'PT' } } },
        },
      },
      { insertText: { objectId: 'note_box_1', text: 'Thanks!' } },
      { insertText: { objectId: 'g_numbers_table', cellLocation: { rowIndex: 2, columnIndex: 1 }, text: '~' } },
    ];
    const result = ok(await h.call('slides_batch_update', { presentation_id: deck, requests }));
    const req = onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/v1/presentations/${deck}:batchUpdate`);
    expect(req.json()).toEqual({ requests });
    expect(result).toEqual({ presentationId: deck, replies: [{}, { replaceAllText: { occurrencesChanged: 2 } }, { createShape: { objectId: 'note_box_1' } }, {}, {}] });
    const texts = slides.texts(deck);
    expect(texts.find((t) => t[0] === 'Key Highlights')).toEqual(['Key Highlights', 'Sales up 12%\nChurn down to 3%\nTwo new regions']);
    expect(texts.at(-2)).toEqual(['Questions?', 'Thanks!']);

    const bad = await h.call('slides_batch_update', {
      presentation_id: deck,
      requests: [{ insertText: { objectId: 'g_intro_subtitle', text: 'LOST ' } }, { deleteObject: { objectId: 'nope_object' } }],
    });
    expect(failure(bad)).toMatch(/^Slides API error \(400\): .*Invalid requests\[1\]\.deleteObject: The object \(nope_object\) could not be found\./);
    expect(slides.texts(deck)[0]).toEqual(['Quarterly Review', 'Q3 2024 · Finance team']);
    expect(failure(await h.call('slides_batch_update', { presentation_id: deck, requests: [{ makeItPop: {} }] }))).toMatch(/Unknown name \\?"makeItPop\\?"/);
    expect(await h.call('slides_batch_update', { presentation_id: deck, requests: [] })).toMatchObject({ status: 'error', errorType: 'validation_error' });
    expect(await h.call('slides_batch_update', { presentation_id: deck })).toMatchObject({ status: 'error', errorType: 'validation_error' });
  });

  it('slides_delete_slide: deleteObject for the slide; it is gone from the deck; an unknown slide is refused', async () => {
    const result = ok(await h.call('slides_delete_slide', { presentation_id: deck, slide_id: 'g_numbers' }));
    const req = onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/v1/presentations/${deck}:batchUpdate`);
    expect(req.json()).toEqual({ requests: [{ deleteObject: { objectId: 'g_numbers' } }] });
    expect(result).toEqual({ success: true, presentationId: deck, deletedSlideId: 'g_numbers' });
    expect(slideIds().map((s) => s.objectId)).not.toContain('g_numbers');
    expect(ok(await h.call('slides_list_slides', { presentation_id: deck }))).toHaveLength(5);
    expect(failure(await h.call('slides_delete_slide', { presentation_id: deck, slide_id: 'g_numbers' }))).toMatch(
      /^Slides API error \(400\): .*The object \(g_numbers\) could not be found/,
    );
    expect(await h.call('slides_delete_slide', { presentation_id: deck })).toMatchObject({ status: 'error', errorType: 'validation_error' });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { ToolResult } from '@oneclaw/tool-registry';
import { registerDocsRoutes, type DocsFake } from '../testing/fake-google/docs';
import { googleToolChecks, type GoogleToolChecks } from '../testing/google-tool-checks';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';

let h: ToolHarness;
let docs: DocsFake;
let c: GoogleToolChecks;
beforeAll(async () => {
  h = await startToolHarness({ files: ['google_docs'] });
  docs = registerDocsRoutes(h.api);
  c = googleToolChecks(h, 'Docs', 'docs.googleapis.com');
});
beforeEach(() => h.api.clearRequests());
afterAll(async () => {
  expect(h.api.unmatched).toEqual([]);
  await h.close();
});

/** A Docs API error whose message also names what the API refused. */
function refused(result: ToolResult, status: number, detail: RegExp): void {
  c.apiError(result, status);
  expect(result.status === 'error' && result.message).toMatch(detail);
}

describe('J8 google_docs: reading', () => {
  it('docs_get: GET /v1/documents/{id} → paragraphs with their indexes, styles and text', async () => {
    const doc = c.ok(await h.call('docs_get', { document_id: docs.seeded.brief }));
    expect(c.sent()).toEqual([`GET /v1/documents/${docs.seeded.brief}`]);
    expect(doc).toEqual({
      documentId: docs.seeded.brief,
      title: 'Project brief',
      revisionId: docs.documents.get(docs.seeded.brief)!.revisionId,
      endIndex: 90,
      content: [
        { type: 'paragraph', startIndex: 1, endIndex: 15, style: 'TITLE', text: 'Project brief\n' },
        { type: 'paragraph', startIndex: 15, endIndex: 46, style: 'NORMAL_TEXT', text: 'The launch is planned for May.\n' },
        { type: 'paragraph', startIndex: 46, endIndex: 90, style: 'NORMAL_TEXT', text: 'Owner: Alex. Reviewer: Kim. Alex signs off.\n' },
      ],
    });
    c.apiError(await h.call('docs_get', { document_id: 'no-such-doc' }), 404);
    c.invalid(await h.call('docs_get', {}));
  });

  it('docs_get_text: the text runs joined, across differently styled runs', async () => {
    const result = c.ok(await h.call('docs_get_text', { document_id: docs.seeded.brief }));
    expect(c.sent()).toEqual([`GET /v1/documents/${docs.seeded.brief}`]);
    expect(result).toEqual({
      documentId: docs.seeded.brief,
      title: 'Project brief',
      text: 'Project brief\nThe launch is planned for May.\nOwner: Alex. Reviewer: Kim. Alex signs off.\n',
    });
    c.apiError(await h.call('docs_get_text', { document_id: 'missing' }), 404);
  });
});

describe('J8 google_docs: writing', () => {
  it('docs_create: POST /v1/documents {title} → id, title and edit URL; the new body is one empty paragraph', async () => {
    const created = c.ok(await h.call('docs_create', { title: 'Release notes' }));
    expect(c.sent()).toEqual(['POST /v1/documents']);
    expect(c.body(0)).toEqual({ title: 'Release notes' });
    expect(created).toEqual({
      documentId: expect.any(String),
      title: 'Release notes',
      revisionId: expect.any(String),
      url: `https://docs.google.com/document/d/${created.documentId}/edit`,
    });
    expect(docs.text(created.documentId)).toBe('\n');
    c.invalid(await h.call('docs_create', {}));
  });

  it('docs_insert_text: insertText at index 1 by default, or at the given index; out of range is a 400', async () => {
    const id = docs.add('Insert', 'world\n');
    const first = c.ok(await h.call('docs_insert_text', { document_id: id, text: 'Hello ' }));
    expect(c.sent()).toEqual([`POST /v1/documents/${id}:batchUpdate`]);
    expect(c.body(0)).toEqual({ requests: [{ insertText: { location: { index: 1 }, text: 'Hello ' } }] });
    expect(first).toEqual({ documentId: id, index: 1, insertedLength: 6, revisionId: docs.documents.get(id)!.revisionId });

    c.ok(await h.call('docs_insert_text', { document_id: id, text: ', big', index: 6 }));
    expect(c.body(1)).toEqual({ requests: [{ insertText: { location: { index: 6 }, text: ', big' } }] });
    expect(docs.text(id)).toBe('Hello, big world\n');

    refused(await h.call('docs_insert_text', { document_id: id, text: 'x', index: 18 }), 400, /must be less than the end index of the referenced segment, 18/);
    expect(docs.text(id)).toBe('Hello, big world\n');
    c.apiError(await h.call('docs_insert_text', { document_id: 'missing', text: 'x' }), 404);
    c.invalid(await h.call('docs_insert_text', { document_id: id, text: 'x', index: 0 }));
  });

  it('docs_append_text: GET the document, then insertText before the final newline', async () => {
    const id = docs.add('Append', 'Line one\nLine two\n');
    const result = c.ok(await h.call('docs_append_text', { document_id: id, text: '\nLine three' }));
    expect(c.sent()).toEqual([`GET /v1/documents/${id}`, `POST /v1/documents/${id}:batchUpdate`]);
    expect(c.body(1)).toEqual({ requests: [{ insertText: { location: { index: 18 }, text: '\nLine three' } }] });
    expect(result).toMatchObject({ documentId: id, index: 18, insertedLength: 11 });
    expect(docs.text(id)).toBe('Line one\nLine two\nLine three\n');

    const empty = docs.add('Empty', '');
    c.ok(await h.call('docs_append_text', { document_id: empty, text: 'First words' }));
    expect(docs.text(empty)).toBe('First words\n');
    c.apiError(await h.call('docs_append_text', { document_id: 'missing', text: 'x' }), 404);
  });

  it('docs_delete_range: deleteContentRange; the final newline cannot be deleted', async () => {
    const id = docs.add('Delete', 'Keep this. Drop this.\nSecond\n');
    const result = c.ok(await h.call('docs_delete_range', { document_id: id, start_index: 11, end_index: 22 }));
    expect(c.sent()).toEqual([`POST /v1/documents/${id}:batchUpdate`]);
    expect(c.body(0)).toEqual({ requests: [{ deleteContentRange: { range: { startIndex: 11, endIndex: 22 } } }] });
    expect(result).toMatchObject({ documentId: id, deleted: { startIndex: 11, endIndex: 22 } });
    expect(docs.text(id)).toBe('Keep this.\nSecond\n');

    refused(await h.call('docs_delete_range', { document_id: id, start_index: 12, end_index: 19 }), 400, /newline character at the end of the segment/);
    refused(await h.call('docs_delete_range', { document_id: id, start_index: 5, end_index: 5 }), 400, /should not be empty/);
    expect(docs.text(id)).toBe('Keep this.\nSecond\n');
    c.invalid(await h.call('docs_delete_range', { document_id: id, start_index: 1 }));
  });

  it('docs_find_replace: replaceAllText, case-insensitive by default, with the count (0 when the API leaves it out)', async () => {
    const id = docs.add('Replace', 'Alex wrote this. ALEX and alex agree.\n');
    const result = c.ok(await h.call('docs_find_replace', { document_id: id, find_text: 'alex', replace_text: 'Sam' }));
    expect(c.sent()).toEqual([`POST /v1/documents/${id}:batchUpdate`]);
    expect(c.body(0)).toEqual({ requests: [{ replaceAllText: { containsText: { text: 'alex', matchCase: false }, replaceText: 'Sam' } }] });
    expect(result).toMatchObject({ documentId: id, occurrencesChanged: 3 });
    expect(docs.text(id)).toBe('Sam wrote this. Sam and Sam agree.\n');

    h.api.clearRequests();
    const cased = c.ok(await h.call('docs_find_replace', { document_id: id, find_text: 'sam', replace_text: 'Kim', match_case: true }));
    expect(c.body(0)).toMatchObject({ requests: [{ replaceAllText: { containsText: { matchCase: true } } }] });
    expect(cased.occurrencesChanged).toBe(0);
    expect(docs.text(id)).toBe('Sam wrote this. Sam and Sam agree.\n');

    c.invalid(await h.call('docs_find_replace', { document_id: id, find_text: 'x' }));
    c.apiError(await h.call('docs_find_replace', { document_id: 'missing', find_text: 'a', replace_text: 'b' }), 404);
  });

  it('docs_batch_update: request objects sent as given, applied in order, replies and the new revision back', async () => {
    const id = docs.add('Format', 'Heading text\nBody text here\n');
    const before = docs.documents.get(id)!.revisionId;
    const requests = [
      { updateParagraphStyle: { range: { startIndex: 1, endIndex: 13 }, paragraphStyle: { namedStyleType: 'HEADING_1' }, fields: 'namedStyleType' } },
      { updateTextStyle: { range: { startIndex: 14, endIndex: 18 }, textStyle: { bold: true }, fields: 'bold' } },
      { replaceAllText: { containsText: { text: 'here', matchCase: true }, replaceText: 'there' } },
    ];
    const result = c.ok(await h.call('docs_batch_update', { document_id: id, requests }));
    expect(c.sent()).toEqual([`POST /v1/documents/${id}:batchUpdate`]);
    expect(c.body(0)).toEqual({ requests });
    expect(result).toEqual({ documentId: id, replies: [{}, {}, { replaceAllText: { occurrencesChanged: 1 } }], revisionId: docs.documents.get(id)!.revisionId });
    expect(result.revisionId).not.toBe(before);
    expect(docs.paragraphStyleAt(id, 1)).toEqual({ namedStyleType: 'HEADING_1' });
    expect(docs.textStyleAt(id, 14)).toEqual({ bold: true });
    expect(docs.textStyleAt(id, 18)).toEqual({});
    expect(docs.text(id)).toBe('Heading text\nBody text there\n');

    const got = c.ok(await h.call('docs_get', { document_id: id }));
    expect(got.content[0]).toMatchObject({ style: 'HEADING_1', text: 'Heading text\n' });
  });

  it('docs_batch_update: all or nothing; unknown request kinds, strings and an empty list are refused', async () => {
    const id = docs.add('Atomic', 'Stay the same\n');
    const partlyBad = [{ insertText: { location: { index: 1 }, text: 'Never ' } }, { deleteContentRange: { range: { startIndex: 1, endIndex: 99 } } }];
    refused(await h.call('docs_batch_update', { document_id: id, requests: partlyBad }), 400, /Invalid requests\[1\]\.deleteContentRange/);
    expect(docs.text(id)).toBe('Stay the same\n');
    refused(await h.call('docs_batch_update', { document_id: id, requests: [{ makeItPretty: {} }] }), 400, /Unknown name \\"makeItPretty\\" at .requests\[0\]/);
    refused(
      await h.call('docs_batch_update', { document_id: id, requests: [{ updateTextStyle: { range: { startIndex: 1, endIndex: 5 }, textStyle: { bold: true } } }] }),
      400,
      /At least one field/,
    );
    c.invalid(await h.call('docs_batch_update', { document_id: id, requests: ['insertText'] }));
    c.invalid(await h.call('docs_batch_update', { document_id: id, requests: [] }));
    c.apiError(await h.call('docs_batch_update', { document_id: 'missing', requests: [{ insertText: { location: { index: 1 }, text: 'x' } }] }), 404);
  });
});

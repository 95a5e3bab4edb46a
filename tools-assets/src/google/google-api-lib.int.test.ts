import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';

/**
 * lib('google_api') against answers that are not Google's: a TLS-inspecting proxy or captive
 * portal answering 200 with its own HTML page. The fake Google API stands in for that proxy.
 */
let h: ToolHarness;
const PAGE = `<!DOCTYPE html><html><head><title>Sign in to the corporate proxy</title></head><body>${'x'.repeat(500)}</body></html>`;

beforeAll(async () => {
  h = await startToolHarness({ files: ['google_drive'] });
  h.api.route('GET', 'www.googleapis.com', '/drive/v3/files', () => ({ status: 200, body: PAGE, headers: { 'content-type': 'text/html; charset=utf-8' } }));
});
afterAll(async () => {
  await h.close();
});

describe("lib('google_api'): a 2xx answer that is not JSON", () => {
  it('is an API error naming the status and the start of the answer, not a success with empty results', async () => {
    const result = await h.call('drive_list_files', {});
    expect(result).toMatchObject({ status: 'error', errorType: 'execution_error' });
    expect(result.status === 'error' && result.message).toBe(`Drive API error (200): the answer is not JSON: ${PAGE.slice(0, 200)}…`);
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@oneclaw/core';
import { writeTestPdf } from '@oneclaw/tools-pdf/testing';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { dataPaths } from '../data-paths';

/**
 * The pdf and js_tool_management groups in the booted server (real HTTP, SQLite, the PDF worker
 * thread, the QuickJS worker sandbox), driven by a loopback FAKE Anthropic model.
 */
const MODEL_KEY = 'sk-ant-test-model-key-pdf-js-000';

interface ToolMessage {
  readonly role: string;
  readonly toolName?: string;
  readonly status?: string;
  readonly result?: string;
  readonly errorType?: string;
}

const toolNamesOf = (request: { body: unknown }): string[] => ((request.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);

async function toolResults(server: TestServer, sessionId: string): Promise<ToolMessage[]> {
  const events: RecordedEvent[] = (await server.api('GET', `/api/sessions/${sessionId}/events`)).body.events;
  return events
    .filter((e) => e.type === 'MessageSent')
    .map((e) => e.data as ToolMessage)
    .filter((d) => d.role === 'tool');
}

describe('pdf and js_tool_management groups in the booted server (issue 6, G8)', () => {
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;

  beforeEach(async () => {
    model = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-pdf-js-e2e-'));
    server = await startTestServer({
      dataDir,
      env: { ONECLAW_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: model.url, ONECLAW_PROVIDER_MAX_RETRIES: '1' },
    });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('"what does page 2 say?": the model loads pdf, extracts a page and renders one into the files folder', async () => {
    const files = dataPaths(dataDir).files;
    await writeTestPdf(path.join(files, 'docs/report.pdf'), { pages: ['Alpha page one', 'Bravo page two'], fontSize: 40 });
    await server.api('POST', '/api/sessions', { sessionId: 'pdf' });
    model.enqueue(
      fakeReply.toolCall('load_tool_group', { group_name: 'pdf' }),
      fakeReply.toolCall('pdf_extract_text', { path: 'docs/report.pdf', pages: '2' }),
      fakeReply.toolCall('pdf_render_page', { path: 'docs/report.pdf', page: 1, dpi: 72 }),
      fakeReply.text('Page 2 says "Bravo page two".'),
    );
    const turn = await server.api('POST', '/api/sessions/pdf/messages', { text: 'what does page 2 say?' });
    expect(turn.body).toMatchObject({ reason: 'completed', rounds: 4 });

    expect(toolNamesOf(model.requests[0]!)).not.toContain('pdf_info');
    expect(toolNamesOf(model.requests[1]!)).toEqual(expect.arrayContaining(['pdf_info', 'pdf_extract_text', 'pdf_render_page']));
    const results = await toolResults(server, 'pdf');
    expect(results.map((r) => [r.toolName, r.status])).toEqual([
      ['load_tool_group', 'success'],
      ['pdf_extract_text', 'success'],
      ['pdf_render_page', 'success'],
    ]);
    expect(results[1]?.result).toBe('--- Page 2 of 2 ---\nBravo page two');
    expect(results[2]?.result).toContain("to 'pdf-renders/report-page-1.png': 612 x 792 pixels at 72 dpi");
    const png = readFileSync(path.join(files, 'pdf-renders/report-page-1.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('"make me a word counter": the model creates a JS tool and calls it in the same turn; it shows up in the next request', async () => {
    await server.api('POST', '/api/sessions', { sessionId: 'js' });
    model.enqueue(
      fakeReply.toolCall('load_tool_group', { group_name: 'js_tool_management' }),
      fakeReply.toolCall('create_js_tool', {
        name: 'word_count',
        description: 'Counts the words in a text.',
        parameters_schema: '{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}',
        js_code: 'async function execute(params) { return String(params.text.split(/\\s+/).filter(Boolean).length); }',
      }),
      fakeReply.toolCall('word_count', { text: 'one two three' }),
      fakeReply.text('Three words.'),
    );
    const turn = await server.api('POST', '/api/sessions/js/messages', { text: 'make me a word counter and count "one two three"' });
    expect(turn.body).toMatchObject({ reason: 'completed', rounds: 4 });

    expect(toolNamesOf(model.requests[1]!)).not.toContain('word_count');
    expect(toolNamesOf(model.requests[2]!)).toContain('word_count');
    const results = await toolResults(server, 'js');
    expect(results.map((r) => [r.toolName, r.status, r.result])).toEqual([
      ['load_tool_group', 'success', expect.any(String)],
      ['create_js_tool', 'success', expect.stringContaining("Created the tool 'word_count'")],
      ['word_count', 'success', '3'],
    ]);
    const userTools = dataPaths(dataDir).userTools;
    expect(existsSync(path.join(userTools, 'word_count.json'))).toBe(true);
    expect(existsSync(path.join(userTools, 'word_count.js'))).toBe(true);
  });
});

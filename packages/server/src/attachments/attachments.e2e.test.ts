import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@oneclaw/core';
import { writeTestPdf } from '@oneclaw/tools-pdf/testing';
import { startFakeModelServer, type FakeModelServer, fakeGate, fakeReply } from '@oneclaw/model-providers/testing';
import { waitFor } from '../testing/server-process';
import { startTestServer, TEST_API_TOKEN, type TestServer } from '../testing/test-server';

/**
 * Issue 15, attachments, in the booted server: real HTTP, SQLite, the attachment store on disk,
 * the PDF worker thread, and a loopback FAKE Anthropic model.
 */
const MODEL_KEY = 'sk-ant-test-model-key-attach-000';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

describe('attachments: upload, serve, send to the model, read with the pdf tools (issue 15)', () => {
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;

  beforeEach(async () => {
    model = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-attach-e2e-'));
    server = await startTestServer({
      dataDir,
      env: {
        ONECLAW_PROVIDER: 'anthropic',
        ANTHROPIC_API_KEY: MODEL_KEY,
        ANTHROPIC_BASE_URL: model.url,
        ONECLAW_PROVIDER_MAX_RETRIES: '0',
        ONECLAW_ATTACHMENT_MAX_BYTES: String(64 * 1024),
      },
    });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function upload(bytes: Buffer, contentType: string, name?: string, headers: Record<string, string> = {}) {
    return fetch(`${server.url}/api/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_TOKEN}`, 'content-type': contentType, ...(name ? { 'x-attachment-name': encodeURIComponent(name) } : {}), ...headers },
      body: bytes,
    });
  }

  async function testPdf(pages: string[]): Promise<Buffer> {
    const file = path.join(dataDir, 'incoming', 'report.pdf');
    await writeTestPdf(file, { pages, fontSize: 40 });
    return readFileSync(file);
  }

  it('stores an upload by its SHA-256 outside the event store and serves it back with its type, nosniff and (PDF) a download name', async () => {
    const answer = await upload(PNG, 'image/png', 'chat/cat é.png');
    expect(answer.status).toBe(201);
    const ref = (await answer.json()) as { hash: string };
    expect(ref).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), name: 'cat é.png', mediaType: 'image/png', bytes: PNG.byteLength });
    expect(readFileSync(path.join(dataDir, 'attachments', ref.hash))).toEqual(PNG);
    // The same bytes again: the same hash, nothing new.
    expect(((await (await upload(PNG, 'image/png', 'again.png')).json()) as { hash: string }).hash).toBe(ref.hash);

    const image = await fetch(`${server.url}/api/attachments/${ref.hash}`, { headers: { authorization: `Bearer ${TEST_API_TOKEN}` } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('content-disposition')).toBeNull();
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);

    const pdf = (await (await upload(await testPdf(['Hello']), 'application/pdf', 'Q3 report.pdf')).json()) as { hash: string };
    const served = await fetch(`${server.url}/api/attachments/${pdf.hash}`, { headers: { authorization: `Bearer ${TEST_API_TOKEN}` } });
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toBe(`attachment; filename="Q3 report.pdf"; filename*=UTF-8''Q3%20report.pdf`);

    expect((await fetch(`${server.url}/api/attachments/${ref.hash}`)).status).toBe(401);
    expect((await server.api('GET', `/api/attachments/${'0'.repeat(64)}`)).body).toMatchObject({ status: 404, code: 'attachment_not_found' });
    expect((await server.api('GET', '/api/attachments/..%2Fapi-token')).body).toMatchObject({ status: 400, code: 'invalid_attachment_hash' });
  });

  it('a name of emoji longer than 200 UTF-16 units is never cut in half an emoji, and the PDF downloads with it, as do names older versions cut', async () => {
    const name = `a${'😀'.repeat(150)}.pdf`;
    const bytes = await testPdf(['Emoji']);
    const answer = await upload(bytes, 'application/pdf', name);
    expect(answer.status).toBe(201);
    const ref = (await answer.json()) as { hash: string; name: string };
    const download = () => fetch(`${server.url}/api/attachments/${ref.hash}`, { headers: { authorization: `Bearer ${TEST_API_TOKEN}` } });
    const served = await download();
    // It was a 500 for good: the name ended in a lone \ud83d, which encodeURIComponent refuses.
    expect(served.status).toBe(200);
    expect(ref.name).toBe(name);
    expect(served.headers.get('content-disposition')).toBe(`attachment; filename="a${'_'.repeat(300)}.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);

    // What an older version stored: the name cut at 200 UTF-16 units, ending in a lone \ud83d.
    writeFileSync(path.join(dataDir, 'attachments', `${ref.hash}.json`), JSON.stringify({ name: name.slice(0, 200) }));
    const old = await download();
    expect(old.status).toBe(200);
    expect(old.headers.get('content-disposition')).toBe(`attachment; filename="a${'_'.repeat(198)}_"; filename*=UTF-8''${encodeURIComponent(`a${'😀'.repeat(99)}\ufffd`)}`);
    expect(Buffer.from(await old.arrayBuffer())).toEqual(bytes);
  });

  it('SendMessage: a name override with half an emoji is refused (400 invalid_body) before anything is recorded; 200 emoji are kept whole', async () => {
    const ref = (await (await upload(PNG, 'image/png', 'cat.png')).json()) as { hash: string };
    await server.api('POST', '/api/sessions', { sessionId: 'named' });
    const broken = await server.api('POST', '/api/sessions/named/messages', { text: 'look', attachments: [{ hash: ref.hash, name: 'cat\ud83d.png' }] });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ code: 'invalid_body', detail: expect.stringContaining('attachments.0.name is not well-formed Unicode') });
    expect(((await server.api('GET', '/api/sessions/named/events')).body.events as RecordedEvent[]).map((e) => e.type)).toEqual(['SessionStarted']);
    expect(model.requests).toHaveLength(0);

    // 200 characters (the schema counts code points), 399 UTF-16 units: recorded whole.
    const long = `a${'😀'.repeat(199)}`;
    model.enqueue(fakeReply.text('A cat.'));
    expect((await server.api('POST', '/api/sessions/named/messages', { text: 'look', attachments: [{ hash: ref.hash, name: long }] })).body).toMatchObject({ reason: 'completed' });
    const events = (await server.api('GET', '/api/sessions/named/events')).body.events as RecordedEvent[];
    const user = events.find((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'user')!;
    expect(user.data).toMatchObject({ attachments: [{ hash: ref.hash, name: long }] });
  });

  it('refuses other types (415), bytes that are not what the Content-Type says (415) and files over the limit (413), with stable codes', async () => {
    const html = await upload(Buffer.from('<script>alert(1)</script>'), 'text/html', 'x.html');
    expect(html.status).toBe(415);
    expect(await html.json()).toMatchObject({ code: 'attachment_type_unsupported', detail: expect.stringContaining('PNG, JPEG, GIF or WebP image or a PDF') });

    const disguised = await upload(Buffer.from('<html>not an image</html>'), 'image/png', 'x.png');
    expect(disguised.status).toBe(415);
    expect(await disguised.json()).toMatchObject({ code: 'attachment_type_mismatch' });

    const big = await upload(Buffer.concat([PNG, Buffer.alloc(70 * 1024)]), 'image/png', 'big.png');
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'attachment_too_large', detail: expect.stringContaining('64 KB') });
  });

  it('an upload the client abandons midway is not logged as a server fault; the next upload works', async () => {
    // The server's side of the abandoned request: its answer, which nobody reads, says how it was handled.
    const httpServer = server.app.getHttpServer() as http.Server;
    const answeredOnServer = new Promise<http.ServerResponse>((resolve) => {
      const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
        if (req.url !== '/api/attachments') return;
        httpServer.off('request', onRequest);
        resolve(res);
      };
      httpServer.on('request', onRequest);
    });
    const req = http.request(`${server.url}/api/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_TOKEN}`, 'content-type': 'image/png', 'content-length': String(60 * 1024) },
    });
    req.on('error', () => undefined);
    // Part of the body, then the connection goes (a cancelled upload, a closed tab), whether the
    // server has read that part yet or not.
    req.write(PNG, () => req.destroy());
    const answer = await answeredOnServer;
    // Handled as the client's doing (400 invalid_body, not logged), not left hanging or failed as a 500.
    await waitFor('the abandoned upload to be answered', async () => (answer.statusCode === 400 ? true : undefined));

    // A whole request later, the abandoned one's error has long reached the problem filter.
    expect((await upload(PNG, 'image/png')).status).toBe(201);
    expect(server.logLines.records().filter((r) => r.msg === 'request failed')).toEqual([]);
  });

  it('SendMessage with an unknown hash is refused (400 attachment_not_found) before anything is recorded', async () => {
    await server.api('POST', '/api/sessions', { sessionId: 'unknown' });
    const answer = await server.api('POST', '/api/sessions/unknown/messages', { text: 'look', attachments: [{ hash: 'f'.repeat(64) }] });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'attachment_not_found' });
    const events = (await server.api('GET', '/api/sessions/unknown/events')).body.events as RecordedEvent[];
    expect(events.map((e) => e.type)).toEqual(['SessionStarted']);
    expect(model.requests).toHaveLength(0);
  });

  it('FAKE model: the user attaches a PDF; the request carries it as a document; the model reads it with pdf_extract_text on attachment:<hash>', async () => {
    const bytes = await testPdf(['Alpha page one', 'Bravo page two']);
    const ref = (await (await upload(bytes, 'application/pdf', 'report.pdf')).json()) as { hash: string; bytes: number };
    await server.api('POST', '/api/sessions', { sessionId: 'pdf' });
    model.enqueue(
      fakeReply.toolCall('load_tool_group', { group_name: 'pdf' }),
      fakeReply.toolCall('pdf_extract_text', { path: `attachment:${ref.hash}`, pages: '2' }),
      fakeReply.text('Page 2 says "Bravo page two".'),
    );
    const turn = await server.api('POST', '/api/sessions/pdf/messages', { text: 'what does page 2 say?', attachments: [{ hash: ref.hash }] });
    expect(turn.body).toMatchObject({ reason: 'completed', rounds: 3 });

    // The event holds the reference, never the bytes.
    const events = (await server.api('GET', '/api/sessions/pdf/events')).body.events as RecordedEvent[];
    const user = events.find((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'user')!;
    expect(user.data).toMatchObject({ text: 'what does page 2 say?', attachments: [{ hash: ref.hash, name: 'report.pdf', mediaType: 'application/pdf', bytes: ref.bytes }] });
    expect(JSON.stringify(events)).not.toContain(bytes.toString('base64').slice(0, 200));

    // Every request of the session sends the document again, with the note naming the tool path.
    for (const request of model.requests) {
      const content = (request.body as { messages: { content: Record<string, any>[] }[] }).messages[0]!.content;
      expect(content[0]).toEqual({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: bytes.toString('base64') }, title: 'report.pdf' });
      expect(content[1]!.text).toContain(`read it with path "attachment:${ref.hash}"`);
    }
    const results = events.filter((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'tool').map((e) => e.data as { toolName: string; result?: string });
    expect(results.map((r) => r.toolName)).toEqual(['load_tool_group', 'pdf_extract_text']);
    expect(results[1]?.result).toBe('--- Page 2 of 2 ---\nBravo page two');
  });

  it('FAKE model: in a tool loop each attached file is read once per turn: removed from the store after round 1, round 2 still sends it', async () => {
    const ref = (await (await upload(PNG, 'image/png', 'cat.png')).json()) as { hash: string };
    await server.api('POST', '/api/sessions', { sessionId: 'loop' });
    const gate = fakeGate();
    model.enqueue({ ...fakeReply.toolCall('load_tool_group', { group_name: 'pdf' }), waitFor: gate.opened }, fakeReply.text('Still a cat.'));
    const turn = server.api('POST', '/api/sessions/loop/messages', { text: 'what is this?', attachments: [{ hash: ref.hash }] });
    await waitFor('the first model request', async () => (model.requests.length === 1 ? true : undefined));
    // Round 1's request has been built from the file; now it leaves the store.
    unlinkSync(path.join(dataDir, 'attachments', ref.hash));
    gate.release();
    expect((await turn).body).toMatchObject({ reason: 'completed', rounds: 2 });
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } };
    for (const request of model.requests) expect((request.body as { messages: { content: Record<string, any>[] }[] }).messages[0]!.content[0]).toEqual(image);
  });

  it('FAKE model: a file gone from the store becomes a note in the request, and the turn still runs', async () => {
    const ref = (await (await upload(PNG, 'image/png', 'cat.png')).json()) as { hash: string };
    await server.api('POST', '/api/sessions', { sessionId: 'gone' });
    model.enqueue(fakeReply.text('A cat.'));
    expect((await server.api('POST', '/api/sessions/gone/messages', { text: 'what is this?', attachments: [{ hash: ref.hash }] })).body).toMatchObject({ reason: 'completed' });
    expect((model.requests[0]!.body as { messages: { content: Record<string, any>[] }[] }).messages[0]!.content[0]).toMatchObject({ type: 'image' });

    unlinkSync(path.join(dataDir, 'attachments', ref.hash));
    model.enqueue(fakeReply.text('I cannot see it any more.'));
    const next = await server.api('POST', '/api/sessions/gone/messages', { text: 'and now?' });
    expect(next.body).toMatchObject({ reason: 'completed', reply: 'I cannot see it any more.' });
    const content = (model.requests[1]!.body as { messages: { content: Record<string, any>[] }[] }).messages[0]!.content;
    expect(content.map((c) => c.type)).toEqual(['text']);
    expect(content[0]!.text).toContain(`"cat.png" (image/png, ${PNG.byteLength} B): the file is missing from the server's attachment store`);
  });
});

import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '@oneclaw/core';
import { fakeReply, startFakeModelServer, type FakeModelServer } from '@oneclaw/model-providers/testing';
import { SENT_REQUEST_VIEWS } from '../testing/sent-request-views';
import { startTestServer, TEST_API_TOKEN, type ApiResponse, type TestServer } from '../testing/test-server';

/**
 * A message of files only (issue 15): real HTTP, SQLite, the attachment store on disk and a
 * loopback FAKE model of each provider. The body may leave `text` out when it names a file; with
 * neither it is refused (`400 message_empty`) before anything is recorded. The request each
 * provider is sent carries the files and the notes naming them, never an empty text part (the
 * APIs refuse those).
 */
const MODEL_KEY = 'sk-test-model-key-files-only-000';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

interface UserData {
  readonly role: string;
  readonly text: string;
  readonly attachments?: readonly { hash: string; name: string; mediaType: string }[];
}

const userMessages = (events: readonly RecordedEvent[]) => events.filter((e) => e.type === 'MessageSent' && (e.data as UserData).role === 'user').map((e) => e.data as UserData);

/** Every text the request's conversation holds: Anthropic and OpenAI `{type: 'text', text}` parts, Gemini `{text}` parts, OpenAI string contents. */
function textsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) textsIn(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if ((key === 'text' || key === 'content') && typeof inner === 'string') out.push(inner);
      else textsIn(inner, out);
    }
  }
  return out;
}

function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get('content-type')).toContain('application/problem+json');
}

describe('a message of files only (issue 15; FAKE models)', () => {
  let model: FakeModelServer | undefined;
  let server: TestServer | undefined;
  let dataDir: string | undefined;

  async function start(kind: 'anthropic' | 'openai' | 'gemini'): Promise<{ model: FakeModelServer; server: TestServer }> {
    const fake = await startFakeModelServer(kind, { apiKey: MODEL_KEY });
    model = fake;
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-files-only-'));
    server = await startTestServer({ dataDir, env: { ...SENT_REQUEST_VIEWS[kind].env(fake, MODEL_KEY), ONECLAW_PROVIDER_MAX_RETRIES: '0' } });
    return { model: fake, server };
  }

  afterEach(async () => {
    await server?.close();
    await model?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    server = undefined;
    model = undefined;
    dataDir = undefined;
  });

  async function upload(to: TestServer, bytes: Buffer, contentType: string, name: string): Promise<{ hash: string }> {
    const answer = await fetch(`${to.url}/api/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_TOKEN}`, 'content-type': contentType, 'x-attachment-name': encodeURIComponent(name) },
      body: bytes,
    });
    expect(answer.status).toBe(201);
    return (await answer.json()) as { hash: string };
  }

  it.each(['anthropic', 'openai', 'gemini'] as const)(
    'FAKE %s: files without text are sent; the event has no text, the request names the files in a non-empty text part, the list is titled by the file names',
    async (kind) => {
      const { model, server } = await start(kind);
      const image = await upload(server, PNG, 'image/png', 'cat.png');
      const pdf = await upload(server, PDF, 'application/pdf', 'report.pdf');
      expect((await server.api('POST', '/api/sessions', { sessionId: 'files' })).status).toBe(201);
      model.enqueue(fakeReply.text('A cat and a report.'));

      const turn = await server.api('POST', '/api/sessions/files/messages', { attachments: [{ hash: image.hash }, { hash: pdf.hash }] });
      expect(turn.body).toMatchObject({ reason: 'completed', reply: 'A cat and a report.' });

      const events = (await server.api('GET', '/api/sessions/files/events')).body.events as RecordedEvent[];
      expect(userMessages(events)).toEqual([
        expect.objectContaining({
          text: '',
          attachments: [expect.objectContaining({ name: 'cat.png', mediaType: 'image/png' }), expect.objectContaining({ name: 'report.pdf', mediaType: 'application/pdf' })],
        }),
      ]);

      // One user message; its only text is the notes, and no text anywhere in the request is blank.
      const conversation = SENT_REQUEST_VIEWS[kind].conversation(model.requests[0]?.body) as unknown[];
      expect(conversation).toHaveLength(1);
      const texts = textsIn(conversation);
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatch(/^\[Attached image "cat\.png" \(image\/png, [^)]+\)\]\n\n\[Attached PDF "report\.pdf"/);
      for (const text of textsIn(model.requests[0]?.body)) expect(text.trim()).not.toBe('');

      const listed = (await server.api('GET', '/api/sessions')).body.sessions as { sessionId: string; title: string }[];
      expect(listed.find((s) => s.sessionId === 'files')?.title).toBe('cat.png, report.pdf');
    },
  );

  it('no text and no file is refused with 400 message_empty (blank text too); blanks beside a file are recorded as no text', async () => {
    const { model, server } = await start('openai');
    expect((await server.api('POST', '/api/sessions', { sessionId: 'empty' })).status).toBe(201);
    for (const body of [{}, { text: '' }, { text: ' \n\t ' }, { text: '', attachments: [] }]) {
      const refused = await server.api('POST', '/api/sessions/empty/messages', body);
      expectProblem(refused, 400, 'message_empty');
      expect(refused.body.detail).toBe('A message needs some text or at least one attached file. Type a message, or attach an image or a PDF.');
    }
    // The same over SSE: refused before the stream opens.
    expectProblem(await server.api('POST', '/api/sessions/empty/messages', {}, { accept: 'text/event-stream' }), 400, 'message_empty');
    expect(((await server.api('GET', '/api/sessions/empty/events')).body.events as RecordedEvent[]).map((e) => e.type)).toEqual(['SessionStarted']);
    expect(model.requests).toHaveLength(0);

    const image = await upload(server, PNG, 'image/png', 'cat.png');
    model.enqueue(fakeReply.text('A cat.'));
    expect((await server.api('POST', '/api/sessions/empty/messages', { text: '  \n ', attachments: [{ hash: image.hash }] })).body).toMatchObject({ reason: 'completed' });
    const events = (await server.api('GET', '/api/sessions/empty/events')).body.events as RecordedEvent[];
    expect(userMessages(events).map((m) => m.text)).toEqual(['']);
  });
});

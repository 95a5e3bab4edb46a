import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '@oneclaw/core';
import { fakeReply, type FakeReply, startFakeModelServer, type FakeModelKind, type FakeModelServer } from '@oneclaw/model-providers/testing';
import { SENT_REQUEST_VIEWS } from '../testing/sent-request-views';
import { startTestServer, type TestServer } from '../testing/test-server';
import { SUMMARY_HEADER } from './conversation';

/**
 * A provider refusing a request as longer than the model's context window, end to end: a booted
 * server (SQLite) and a loopback FAKE model answering with each provider's real refusal. No
 * ONECLAW_CONTEXT_WINDOW_TOKENS: the table says 200 000 for Claude, so only the refusal (and the
 * limit it names) can make the turn compact.
 */
const MODEL_KEY = 'sk-test-model-key-overflow';
const LONG_NOTE = `Remember this note: ${'the quick brown fox jumps over the lazy dog '.repeat(150)}`;

/** The refusals as each API sends them (HTTP 400). */
const REFUSALS: Readonly<Record<FakeModelKind, (prompt: number, limit: number) => FakeReply>> = {
  anthropic: (prompt, limit) =>
    fakeReply.error(400, { body: { type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long: ${prompt} tokens > ${limit} maximum` } } }),
  openai: (prompt, limit) =>
    fakeReply.error(400, {
      body: {
        error: {
          message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`,
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    }),
  gemini: (prompt, limit) =>
    fakeReply.error(400, {
      body: { error: { code: 400, message: `The input token count (${prompt}) exceeds the maximum number of tokens allowed (${limit}).`, status: 'INVALID_ARGUMENT' } },
    }),
};

const eventsOf = async (server: TestServer, id: string): Promise<RecordedEvent[]> => (await server.api('GET', `/api/sessions/${id}/events`)).body.events;
const ofType = (events: readonly RecordedEvent[], type: string) => events.filter((e) => e.type === type);

describe.each(['anthropic', 'openai', 'gemini'] as const)('a FAKE %s model refusing the prompt as too long', (kind) => {
  const view = SENT_REQUEST_VIEWS[kind];
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;
  const bodyOf = (index: number): unknown => model.requests[index]?.body;

  async function start(): Promise<void> {
    model = await startFakeModelServer(kind, { apiKey: MODEL_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-overflow-'));
    server = await startTestServer({
      dataDir,
      env: {
        ...view.env(model, MODEL_KEY),
        ONECLAW_PROVIDER_MAX_RETRIES: '0',
        ONECLAW_MODEL: kind === 'anthropic' ? 'claude-sonnet-4-5' : kind === 'openai' ? 'gpt-4o' : 'gemini-2.5-flash',
      },
    });
  }

  afterEach(async () => {
    await server.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Loads google_gmail, then leaves the long note: three requests, each reporting a small input. */
  async function converse(sessionId: string): Promise<void> {
    expect((await server.api('POST', '/api/sessions', { sessionId })).status).toBe(201);
    model.enqueue(
      { toolCalls: [{ name: 'load_tool_group', arguments: { group_name: 'google_gmail' } }], usage: { inputTokens: 400, outputTokens: 10 } },
      fakeReply.text('Gmail is loaded.', { inputTokens: 500, outputTokens: 5 }),
      fakeReply.text('Noted.', { inputTokens: 1900, outputTokens: 3 }),
    );
    expect((await server.api('POST', `/api/sessions/${sessionId}/messages`, { text: 'open my mail tools' })).body).toMatchObject({ reason: 'completed' });
    expect((await server.api('POST', `/api/sessions/${sessionId}/messages`, { text: LONG_NOTE })).body).toMatchObject({ reason: 'completed' });
  }

  it('compacts (trigger overflow) with the limit the provider named, sends the request once more, keeps the groups, plans later turns with that limit, and replays to the same requests (P4)', async () => {
    await start();
    await converse('over');
    model.enqueue(REFUSALS[kind](5200, 4000), fakeReply.text('SUMMARY: Gmail tools loaded; a note about a fox.'), fakeReply.text('Ready.', { inputTokens: 3500, outputTokens: 2 }));
    const turn = await server.stream('/api/sessions/over/messages', { text: 'what did I say?' });
    expect(turn.events.map((e) => e.event)).toContain('conversation_compacted');
    expect(turn.events.find((e) => e.event === 'done')?.data).toMatchObject({ reason: 'completed', reply: 'Ready.' });

    // Request 4 was refused, 5 is the summary (no tools), 6 the same turn's request again, now fitting.
    expect(model.requests).toHaveLength(6);
    expect(view.hasTools(bodyOf(4))).toBe(false);
    expect(JSON.stringify(view.conversation(bodyOf(3)))).toContain('quick brown fox');
    const retried = JSON.stringify(view.conversation(bodyOf(5)));
    expect(retried).toContain(SUMMARY_HEADER.slice(1, 40));
    expect(retried).toContain('SUMMARY: Gmail tools loaded');
    expect(retried).not.toContain('quick brown fox');
    expect(retried).toContain('what did I say?');
    expect(view.toolNames(bodyOf(5))).toEqual(expect.arrayContaining(['gmail_search']));

    let events = await eventsOf(server, 'over');
    expect(ofType(events, 'ConversationCompacted').map((e) => e.data)).toEqual([expect.objectContaining({ trigger: 'overflow', provider: kind })]);
    expect((await server.api('GET', '/api/sessions/over')).body.loadedGroups).toEqual(['google_gmail']);
    const audit = await server.api('GET', '/api/sessions/over/audit?format=text');
    expect(audit.text).toMatch(/compacted \(overflow\): \d+ messages up to/);

    // The named limit (4000) is what the server now plans with, not the table's window: a reply
    // reporting 3500 input tokens (≥ 85%) makes the next turn try to compact before its request.
    model.enqueue(fakeReply.text('More.'));
    expect((await server.api('POST', '/api/sessions/over/messages', { text: 'anything else?' })).body).toMatchObject({ reason: 'completed', reply: 'More.' });
    events = await eventsOf(server, 'over');
    expect(ofType(events, 'CompactionFailed').map((e) => e.data)).toEqual([expect.objectContaining({ trigger: 'auto', code: 'nothing_to_compact' })]);

    // P4: every request that was recorded (the refused one too) rebuilds from the stream to what was sent.
    const recorded = [0, 1, 2, 3, 5, 6];
    expect(ofType(events, 'ModelRequested')).toHaveLength(recorded.length);
    recorded.forEach((index, n) => expect(view.rebuilt(events, n + 1)).toEqual(view.conversation(bodyOf(index))));
  });

  it('a second refusal after compacting ends the turn as provider_error, saying what to do, without another attempt', async () => {
    await start();
    await converse('still');
    model.enqueue(REFUSALS[kind](9000, 4000), fakeReply.text('SUMMARY: a note.'), REFUSALS[kind](8800, 4000));
    const turn = await server.api('POST', '/api/sessions/still/messages', { text: 'paste: ' + 'x '.repeat(50) });
    expect(turn.body).toMatchObject({ reason: 'provider_error' });
    expect(turn.body.detail).toContain('even after it was compacted');
    expect(turn.body.detail).toContain('/clear');
    expect(turn.body.detail).toContain('4000 tokens');
    expect(model.requests).toHaveLength(6);
    expect(model.pendingReplies).toBe(0);
    const events = await eventsOf(server, 'still');
    expect(ofType(events, 'ConversationCompacted')).toHaveLength(1);
    expect(ofType(events, 'TurnFinished').at(-1)?.data).toMatchObject({ reason: 'provider_error' });
  });

  it('when there is nothing to compact (one message larger than the window) the turn ends as provider_error at once', async () => {
    await start();
    expect((await server.api('POST', '/api/sessions', { sessionId: 'huge' })).status).toBe(201);
    model.enqueue(REFUSALS[kind](250_000, 200_000));
    const turn = await server.api('POST', '/api/sessions/huge/messages', { text: LONG_NOTE });
    expect(turn.body).toMatchObject({ reason: 'provider_error' });
    expect(turn.body.detail).toContain('could not be compacted');
    expect(turn.body.detail).toContain('shorten the last message');
    expect(model.requests).toHaveLength(1);
    const events = await eventsOf(server, 'huge');
    expect(ofType(events, 'CompactionFailed').map((e) => e.data)).toEqual([expect.objectContaining({ trigger: 'overflow', code: 'nothing_to_compact' })]);
  });
});

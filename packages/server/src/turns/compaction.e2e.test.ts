import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '@oneclaw/core';
import { countTextTokens } from '@oneclaw/tool-registry';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { SENT_REQUEST_VIEWS } from '../testing/sent-request-views';
import { startTestServer, type TestServer } from '../testing/test-server';
import { SUMMARY_HEADER } from './conversation';

/**
 * Compaction end to end: a booted server (SQLite), a loopback FAKE model that reports the input
 * tokens we script, and a context window made small by ONECLAW_CONTEXT_WINDOW_TOKENS (4000:
 * compaction at 3400 input tokens, the latest 1000 tokens kept as they are). The main scenario
 * runs against each provider's wire format (Anthropic, OpenAI-compatible, Gemini: each reports
 * its input tokens its own way); the edge cases run against Anthropic.
 */
const MODEL_KEY = 'sk-ant-test-model-key-compact';
const WINDOW = 4000;
const LONG_NOTE = `Remember this note: ${'the quick brown fox jumps over the lazy dog '.repeat(150)}`;

const eventsOf = async (server: TestServer, id: string): Promise<RecordedEvent[]> => (await server.api('GET', `/api/sessions/${id}/events`)).body.events;
const ofType = (events: readonly RecordedEvent[], type: string) => events.filter((e) => e.type === type);

function env(model: FakeModelServer): Record<string, string> {
  return { ...SENT_REQUEST_VIEWS[model.kind].env(model, MODEL_KEY), ONECLAW_PROVIDER_MAX_RETRIES: '0', ONECLAW_CONTEXT_WINDOW_TOKENS: String(WINDOW) };
}

/** Loads google_gmail (turn 1), then sends the long note and has the model report a nearly full window (turn 2). */
async function fillWindow(server: TestServer, model: FakeModelServer, sessionId: string): Promise<void> {
  expect((await server.api('POST', '/api/sessions', { sessionId })).status).toBe(201);
  model.enqueue(
    { toolCalls: [{ name: 'load_tool_group', arguments: { group_name: 'google_gmail' } }], usage: { inputTokens: 400, outputTokens: 10 } },
    fakeReply.text('Gmail is loaded.', { inputTokens: 500, outputTokens: 5 }),
    fakeReply.text('Noted.', { inputTokens: 3500, outputTokens: 3 }),
  );
  expect((await server.api('POST', `/api/sessions/${sessionId}/messages`, { text: 'open my mail tools' })).body).toMatchObject({ reason: 'completed' });
  expect((await server.api('POST', `/api/sessions/${sessionId}/messages`, { text: LONG_NOTE })).body).toMatchObject({ reason: 'completed' });
}

describe.each(['anthropic', 'openai', 'gemini'] as const)('context compaction with a FAKE %s model', (kind) => {
  const view = SENT_REQUEST_VIEWS[kind];
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;
  const bodyOf = (index: number): unknown => model.requests[index]?.body;

  beforeEach(async () => {
    model = await startFakeModelServer(kind, { apiKey: MODEL_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-compact-'));
    server = await startTestServer({ dataDir, env: env(model) });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('P4: compacts past 85% of the window, sends summary + recent messages only, keeps loaded groups across a restart, and replays to the same requests', async () => {
    await fillWindow(server, model, 'long');
    expect(model.requests).toHaveLength(3);

    // Turn 3: the last request reported 3500 ≥ 3400 input tokens, so the turn summarises first.
    model.enqueue(fakeReply.text('SUMMARY: the user loaded Gmail tools and left a note about a fox.'), fakeReply.text('Ready.'));
    const third = await server.stream('/api/sessions/long/messages', { text: 'what did I say?' });
    expect(third.events.map((e) => e.event)).toContain('conversation_compacted');
    expect(third.events.find((e) => e.event === 'done')?.data).toMatchObject({ reason: 'completed', reply: 'Ready.' });

    // The summary request: no tools, the early conversation as a transcript.
    expect(view.hasTools(bodyOf(3))).toBe(false);
    const summarised = JSON.stringify(view.conversation(bodyOf(3)));
    expect(summarised).toContain('load_tool_group');
    expect(summarised).toContain('quick brown fox');

    // The turn's request: the marked summary, then only what came after the boundary.
    const sent = JSON.stringify(view.conversation(bodyOf(4)));
    expect(sent).toContain(SUMMARY_HEADER.slice(1, 40));
    expect(sent).toContain('SUMMARY: the user loaded Gmail tools');
    expect(sent).not.toContain('quick brown fox');
    expect(sent).not.toContain('open my mail tools');
    expect(sent).toContain('what did I say?');
    expect(view.toolNames(bodyOf(4))).toEqual(expect.arrayContaining(['gmail_search']));

    let events = await eventsOf(server, 'long');
    const [compacted] = ofType(events, 'ConversationCompacted');
    const longNote = ofType(events, 'MessageSent').find((e) => (e.data as { text?: string }).text === LONG_NOTE) as RecordedEvent;
    expect(compacted?.data).toMatchObject({
      trigger: 'auto',
      provider: kind,
      boundaryMessageId: (longNote.data as { messageId: string }).messageId,
      summary: 'SUMMARY: the user loaded Gmail tools and left a note about a fox.',
    });
    const data = compacted?.data as { tokensBefore: number; tokensAfter: number };
    expect(data.tokensAfter).toBeLessThan(data.tokensBefore);
    expect(ofType(events, 'ModelRequested')).toHaveLength(4); // the summary request is not a tool request
    const session = (await server.api('GET', '/api/sessions/long')).body;
    expect(session.loadedGroups).toEqual(['google_gmail']);
    expect(session.summary).toEqual({
      text: 'SUMMARY: the user loaded Gmail tools and left a note about a fox.',
      boundaryMessageId: (longNote.data as { messageId: string }).messageId,
    });
    expect(session.messages.map((m: { text?: string }) => m.text)).toContain(LONG_NOTE); // the view keeps every message

    const audit = await server.api('GET', '/api/sessions/long/audit?format=text');
    expect(audit.text).toMatch(new RegExp(`compacted \\(auto\\): 5 messages up to .* summarised by ${kind}/`));

    // After a restart the stream alone gives the same conversation and groups.
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir, env: env(model) });
    model.enqueue(fakeReply.text('Still here.', { inputTokens: 900, outputTokens: 3 }));
    expect((await server.api('POST', '/api/sessions/long/messages', { text: 'still there?' })).body).toMatchObject({ reason: 'completed', reply: 'Still here.' });
    expect(model.requests).toHaveLength(6); // no second compaction: the window was relieved
    const afterRestart = JSON.stringify(view.conversation(bodyOf(5)));
    expect(afterRestart).toContain('SUMMARY: the user loaded Gmail tools');
    expect(afterRestart).not.toContain('quick brown fox');
    expect(view.toolNames(bodyOf(5))).toEqual(expect.arrayContaining(['gmail_search']));

    // P4: every request's conversation rebuilt from the stream is the one that was sent.
    events = await eventsOf(server, 'long');
    const turnRequests = [0, 1, 2, 4, 5];
    turnRequests.forEach((index, n) => expect(view.rebuilt(events, n + 1)).toEqual(view.conversation(bodyOf(index))));
  });
});

describe('context compaction edge cases with a FAKE Anthropic model', () => {
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;
  const bodyOf = (index: number): { messages: unknown } => model.requests[index]?.body as { messages: unknown };

  beforeEach(async () => {
    model = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-compact-'));
    server = await startTestServer({ dataDir, env: env(model) });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a failed summary is recorded and the turn still answers with the history as it was', async () => {
    await fillWindow(server, model, 'fails');
    model.enqueue(fakeReply.error(400, { message: 'summary refused' }), fakeReply.text('Answered anyway.'));
    const turn = await server.api('POST', '/api/sessions/fails/messages', { text: 'go on' });
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'Answered anyway.' });

    const events = await eventsOf(server, 'fails');
    expect(ofType(events, 'ConversationCompacted')).toHaveLength(0);
    expect(ofType(events, 'CompactionFailed').map((e) => e.data)).toEqual([
      expect.objectContaining({ trigger: 'auto', code: 'summary_failed', detail: expect.stringContaining('summary refused') }),
    ]);
    // The full history went out, and compaction is not retried before the next reply reports its size.
    expect(JSON.stringify(bodyOf(4).messages)).toContain('quick brown fox');
    expect(model.requests).toHaveLength(5);
  });

  it('a summary cut to 2048 tokens that would not shrink the conversation, or an empty one, is recorded as failed', async () => {
    await fillWindow(server, model, 'huge');
    model.enqueue(fakeReply.text('summary '.repeat(3000)), fakeReply.text('One.', { inputTokens: 3600, outputTokens: 1 }));
    expect((await server.api('POST', '/api/sessions/huge/messages', { text: 'next' })).body).toMatchObject({ reason: 'completed', reply: 'One.' });
    model.enqueue(fakeReply.text('   '), fakeReply.text('Two.'));
    expect((await server.api('POST', '/api/sessions/huge/messages', { text: 'and next' })).body).toMatchObject({ reason: 'completed', reply: 'Two.' });

    const events = await eventsOf(server, 'huge');
    expect(ofType(events, 'ConversationCompacted')).toHaveLength(0);
    expect(ofType(events, 'CompactionFailed').map((e) => (e.data as { code: string }).code)).toEqual(['not_smaller', 'summary_empty']);
    expect(JSON.stringify(bodyOf(6).messages)).toContain('quick brown fox');
    // The summary request asks for at most the limit.
    expect((model.requests[3]?.body as { max_tokens: number }).max_tokens).toBe(2048);
  });

  it('a summary over 2048 tokens is cut to them and recorded as cut, when it still shrinks the conversation', async () => {
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir, env: { ...env(model), ONECLAW_CONTEXT_WINDOW_TOKENS: '20000' } });
    expect((await server.api('POST', '/api/sessions', { sessionId: 'cut' })).status).toBe(201);
    model.enqueue(fakeReply.text('Noted.', { inputTokens: 17500, outputTokens: 3 }));
    await server.api('POST', '/api/sessions/cut/messages', { text: LONG_NOTE.repeat(5) });
    model.enqueue(fakeReply.text('summary '.repeat(3000)), fakeReply.text('Done.'));
    expect((await server.api('POST', '/api/sessions/cut/messages', { text: 'next' })).body).toMatchObject({ reason: 'completed', reply: 'Done.' });

    const [compacted] = ofType(await eventsOf(server, 'cut'), 'ConversationCompacted');
    const data = compacted?.data as { summary: string; summaryCut?: boolean; tokensAfter: number; tokensBefore: number };
    expect(data.summaryCut).toBe(true);
    expect(countTextTokens(data.summary)).toBe(2048);
    expect(data.tokensAfter).toBeLessThan(data.tokensBefore);
  });

  it('/compact and POST /api/sessions/:id/compact compact on demand; with nothing to summarise they say so and change nothing', async () => {
    expect((await server.api('POST', '/api/sessions', { sessionId: 'manual' })).status).toBe(201);
    const empty = await server.api('POST', '/api/sessions/manual/compact', {});
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ compacted: false, code: 'nothing_to_compact' });

    model.enqueue(fakeReply.text('Noted.', { inputTokens: 1200, outputTokens: 3 }), fakeReply.text('Sure.', { inputTokens: 1300, outputTokens: 3 }));
    await server.api('POST', '/api/sessions/manual/messages', { text: LONG_NOTE });
    await server.api('POST', '/api/sessions/manual/messages', { text: 'thanks' });

    model.enqueue(fakeReply.text('SUMMARY: a note about a fox.'));
    const viaCommand = await server.api('POST', '/api/sessions/manual/messages', { text: '/compact' });
    expect(viaCommand.body).toMatchObject({ reason: 'compacted', rounds: 0 });
    let events = await eventsOf(server, 'manual');
    expect(ofType(events, 'ConversationCompacted').map((e) => e.data)).toEqual([expect.objectContaining({ trigger: 'user', summarisedMessages: 1 })]);
    expect(ofType(events, 'MessageSent').some((e) => (e.data as { text?: string }).text === '/compact')).toBe(false);

    // Everything after the summary is in the protected recent part now: nothing new to summarise.
    const again = await server.api('POST', '/api/sessions/manual/compact', {});
    expect(again.body).toMatchObject({ compacted: false, code: 'nothing_to_compact', session: { sessionId: 'manual' } });
    events = await eventsOf(server, 'manual');
    expect(ofType(events, 'CompactionFailed').map((e) => (e.data as { code: string }).code)).toEqual(['nothing_to_compact', 'nothing_to_compact']);
    expect(model.requests).toHaveLength(3);
  });
});

describe("the context window from the provider's model list (FAKE Gemini)", () => {
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;

  afterEach(async () => {
    await server.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a window the model list states (inputTokenLimit) is kept with the model and wins over the table; the setting wins over both', async () => {
    // The table says 1 048 576 for every gemini-* model; this one's list entry says 4000.
    model = await startFakeModelServer('gemini', {
      apiKey: MODEL_KEY,
      models: [{ id: 'gemini-small', displayName: 'Gemini Small', contextWindow: WINDOW }, { id: 'gemini-2.5-pro' }],
    });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-compact-'));
    server = await startTestServer({ dataDir, env: { ONECLAW_PROVIDER_MAX_RETRIES: '0' } });
    const created = await server.api('POST', '/api/providers', { name: 'Gemini', kind: 'gemini', apiBaseUrl: model.url, apiKey: MODEL_KEY });
    expect(created.status).toBe(201);
    const providerId = created.body.providerId as string;
    const fetched = await server.api('POST', `/api/providers/${providerId}/models/fetch`, {});
    expect(fetched.body.models).toEqual([
      expect.objectContaining({ modelId: 'gemini-small', contextWindowTokens: WINDOW }),
      expect.objectContaining({ modelId: 'gemini-2.5-pro', contextWindowTokens: 1_048_576 }),
    ]);
    expect((await server.api('PUT', '/api/default-model', { providerId, modelId: 'gemini-small' })).status).toBe(204);

    await fillWindow(server, model, 'listed');
    model.enqueue(fakeReply.text('SUMMARY: Gmail and a fox.'), fakeReply.text('Ready.'));
    expect((await server.api('POST', '/api/sessions/listed/messages', { text: 'what did I say?' })).body).toMatchObject({ reason: 'completed', reply: 'Ready.' });
    expect(ofType(await eventsOf(server, 'listed'), 'ConversationCompacted').map((e) => e.data)).toEqual([expect.objectContaining({ trigger: 'auto', model: 'gemini-small' })]);

    // ONECLAW_CONTEXT_WINDOW_TOKENS wins over the list: with 100 000, 3500 input tokens are far from due.
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir, env: { ONECLAW_PROVIDER_MAX_RETRIES: '0', ONECLAW_CONTEXT_WINDOW_TOKENS: '100000' } });
    await fillWindow(server, model, 'setting');
    model.enqueue(fakeReply.text('Fine.'));
    expect((await server.api('POST', '/api/sessions/setting/messages', { text: 'what did I say?' })).body).toMatchObject({ reason: 'completed', reply: 'Fine.' });
    expect(ofType(await eventsOf(server, 'setting'), 'ConversationCompacted')).toHaveLength(0);
  });
});

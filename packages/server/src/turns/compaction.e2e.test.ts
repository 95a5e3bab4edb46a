import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replay, type RecordedEvent } from '@oneclaw/core';
import { countTextTokens } from '@oneclaw/tool-registry';
import { toAnthropicMessages } from '../providers/anthropic-provider';
import { startFakeModelServer, type FakeModelServer } from '../testing/fake-model-server';
import { fakeReply } from '../testing/fake-model/fake-reply';
import { startTestServer, type TestServer } from '../testing/test-server';
import { SUMMARY_HEADER, toChatMessages } from './conversation';

/**
 * Compaction end to end: a booted server (SQLite), a loopback FAKE Anthropic model that reports
 * the input tokens we script, and a context window made small by ONECLAW_CONTEXT_WINDOW_TOKENS
 * (4000: compaction at 3400 input tokens, the latest 1000 tokens kept as they are).
 */
const MODEL_KEY = 'sk-ant-test-model-key-compact';
const WINDOW = 4000;
const LONG_NOTE = `Remember this note: ${'the quick brown fox jumps over the lazy dog '.repeat(150)}`;

interface AnthropicBody {
  readonly system?: string;
  readonly messages: readonly { role: string; content: unknown }[];
  readonly tools?: readonly { name: string }[];
}

const bodyOf = (model: FakeModelServer, index: number): AnthropicBody => model.requests[index]?.body as AnthropicBody;
const toolNamesOf = (body: AnthropicBody): string[] => (body.tools ?? []).map((t) => t.name);
const eventsOf = async (server: TestServer, id: string): Promise<RecordedEvent[]> => (await server.api('GET', `/api/sessions/${id}/events`)).body.events;
const ofType = (events: readonly RecordedEvent[], type: string) => events.filter((e) => e.type === type);

function env(model: FakeModelServer): Record<string, string> {
  return {
    ONECLAW_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: MODEL_KEY,
    ANTHROPIC_BASE_URL: model.url,
    ONECLAW_PROVIDER_MAX_RETRIES: '0',
    ONECLAW_CONTEXT_WINDOW_TOKENS: String(WINDOW),
  };
}

/** P4: the messages of the request at `ModelRequested` #n, rebuilt from the stream alone. */
function rebuiltMessages(events: readonly RecordedEvent[], requestNumber: number): unknown {
  const at = ofType(events, 'ModelRequested')[requestNumber - 1] as RecordedEvent;
  return toAnthropicMessages(toChatMessages(replay(events.filter((e) => e.revision <= at.revision)), 'anthropic'));
}

describe('context compaction with a fake Anthropic model', () => {
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;

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

  /** Loads google_gmail (turn 1), then sends the long note and has the model report a nearly full window (turn 2). */
  async function fillWindow(sessionId: string): Promise<void> {
    expect((await server.api('POST', '/api/sessions', { sessionId })).status).toBe(201);
    model.enqueue(
      { toolCalls: [{ name: 'load_tool_group', arguments: { group_name: 'google_gmail' } }], usage: { inputTokens: 400, outputTokens: 10 } },
      fakeReply.text('Gmail is loaded.', { inputTokens: 500, outputTokens: 5 }),
      fakeReply.text('Noted.', { inputTokens: 3500, outputTokens: 3 }),
    );
    expect((await server.api('POST', `/api/sessions/${sessionId}/messages`, { text: 'open my mail tools' })).body).toMatchObject({ reason: 'completed' });
    expect((await server.api('POST', `/api/sessions/${sessionId}/messages`, { text: LONG_NOTE })).body).toMatchObject({ reason: 'completed' });
  }

  it('compacts past 85% of the window, sends summary + recent messages only, keeps loaded groups across a restart, and replays to the same requests', async () => {
    await fillWindow('long');
    expect(model.requests).toHaveLength(3);

    // Turn 3: the last request reported 3500 ≥ 3400 input tokens, so the turn summarises first.
    model.enqueue(fakeReply.text('SUMMARY: the user loaded Gmail tools and left a note about a fox.'), fakeReply.text('Ready.'));
    const third = await server.stream('/api/sessions/long/messages', { text: 'what did I say?' });
    expect(third.events.map((e) => e.event)).toContain('conversation_compacted');
    expect(third.events.find((e) => e.event === 'done')?.data).toMatchObject({ reason: 'completed', reply: 'Ready.' });

    // The summary request: no tools, the early conversation as a transcript.
    const summaryRequest = bodyOf(model, 3);
    expect(summaryRequest.tools).toBeUndefined();
    expect(JSON.stringify(summaryRequest.messages)).toContain('load_tool_group');
    expect(JSON.stringify(summaryRequest.messages)).toContain('quick brown fox');

    // The turn's request: the marked summary, then only what came after the boundary.
    const after = bodyOf(model, 4);
    const sent = JSON.stringify(after.messages);
    expect(sent).toContain(SUMMARY_HEADER.slice(1, 40));
    expect(sent).toContain('SUMMARY: the user loaded Gmail tools');
    expect(sent).not.toContain('quick brown fox');
    expect(sent).not.toContain('open my mail tools');
    expect(sent).toContain('what did I say?');
    expect(toolNamesOf(after)).toEqual(expect.arrayContaining(['gmail_search']));

    let events = await eventsOf(server, 'long');
    const [compacted] = ofType(events, 'ConversationCompacted');
    const longNote = ofType(events, 'MessageSent').find((e) => (e.data as { text?: string }).text === LONG_NOTE) as RecordedEvent;
    expect(compacted?.data).toMatchObject({
      trigger: 'auto',
      provider: 'anthropic',
      boundaryMessageId: (longNote.data as { messageId: string }).messageId,
      summary: 'SUMMARY: the user loaded Gmail tools and left a note about a fox.',
    });
    const data = compacted?.data as { tokensBefore: number; tokensAfter: number };
    expect(data.tokensAfter).toBeLessThan(data.tokensBefore);
    expect(ofType(events, 'ModelRequested')).toHaveLength(4); // the summary request is not a tool request
    const session = (await server.api('GET', '/api/sessions/long')).body;
    expect(session.loadedGroups).toEqual(['google_gmail']);
    expect(session.summary).toEqual({ text: 'SUMMARY: the user loaded Gmail tools and left a note about a fox.', boundaryMessageId: (longNote.data as { messageId: string }).messageId });
    expect(session.messages.map((m: { text?: string }) => m.text)).toContain(LONG_NOTE); // the view keeps every message

    const audit = await server.api('GET', '/api/sessions/long/audit?format=text');
    expect(audit.text).toMatch(/compacted \(auto\): 5 messages up to .* summarised by anthropic\//);

    // After a restart the stream alone gives the same conversation and groups.
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir, env: env(model) });
    model.enqueue(fakeReply.text('Still here.', { inputTokens: 900, outputTokens: 3 }));
    expect((await server.api('POST', '/api/sessions/long/messages', { text: 'still there?' })).body).toMatchObject({ reason: 'completed', reply: 'Still here.' });
    expect(model.requests).toHaveLength(6); // no second compaction: the window was relieved
    const afterRestart = bodyOf(model, 5);
    expect(JSON.stringify(afterRestart.messages)).toContain('SUMMARY: the user loaded Gmail tools');
    expect(JSON.stringify(afterRestart.messages)).not.toContain('quick brown fox');
    expect(toolNamesOf(afterRestart)).toEqual(expect.arrayContaining(['gmail_search']));

    // P4: every request's messages rebuilt from the stream are the ones that were sent.
    events = await eventsOf(server, 'long');
    const turnRequests = [0, 1, 2, 4, 5];
    turnRequests.forEach((index, n) => expect(rebuiltMessages(events, n + 1)).toEqual(bodyOf(model, index).messages));
  });

  it('a failed summary is recorded and the turn still answers with the history as it was', async () => {
    await fillWindow('fails');
    model.enqueue(fakeReply.error(400, { message: 'summary refused' }), fakeReply.text('Answered anyway.'));
    const turn = await server.api('POST', '/api/sessions/fails/messages', { text: 'go on' });
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'Answered anyway.' });

    const events = await eventsOf(server, 'fails');
    expect(ofType(events, 'ConversationCompacted')).toHaveLength(0);
    expect(ofType(events, 'CompactionFailed').map((e) => e.data)).toEqual([
      expect.objectContaining({ trigger: 'auto', code: 'summary_failed', detail: expect.stringContaining('summary refused') }),
    ]);
    // The full history went out, and compaction is not retried before the next reply reports its size.
    expect(JSON.stringify(bodyOf(model, 4).messages)).toContain('quick brown fox');
    expect(model.requests).toHaveLength(5);
  });

  it('a summary cut to 2048 tokens that would not shrink the conversation, or an empty one, is recorded as failed', async () => {
    await fillWindow('huge');
    model.enqueue(fakeReply.text('summary '.repeat(3000)), fakeReply.text('One.', { inputTokens: 3600, outputTokens: 1 }));
    expect((await server.api('POST', '/api/sessions/huge/messages', { text: 'next' })).body).toMatchObject({ reason: 'completed', reply: 'One.' });
    model.enqueue(fakeReply.text('   '), fakeReply.text('Two.'));
    expect((await server.api('POST', '/api/sessions/huge/messages', { text: 'and next' })).body).toMatchObject({ reason: 'completed', reply: 'Two.' });

    const events = await eventsOf(server, 'huge');
    expect(ofType(events, 'ConversationCompacted')).toHaveLength(0);
    expect(ofType(events, 'CompactionFailed').map((e) => (e.data as { code: string }).code)).toEqual(['not_smaller', 'summary_empty']);
    expect(JSON.stringify(bodyOf(model, 6).messages)).toContain('quick brown fox');
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

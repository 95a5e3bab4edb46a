import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replay, type RecordedEvent } from '@oneclaw/core';
import { toAnthropicMessages } from '@oneclaw/model-providers';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { openLiveSse } from '../testing/live-sse';
import { startTestServer, type TestServer } from '../testing/test-server';
import { SUMMARY_HEADER, toChatMessages } from './conversation';

/**
 * Retry the last turn and edit the last user message, end to end: a booted server (real HTTP,
 * SQLite), a loopback FAKE Anthropic model. What the model is sent must leave out what was
 * superseded, while the stream, the session view and the audit keep it.
 */
const MODEL_KEY = 'sk-ant-test-model-key-retry';
const LONG_NOTE = `Remember this note: ${'the quick brown fox jumps over the lazy dog '.repeat(150)}`;
const LONG_ANSWER = `The fox story: ${'a fox ran through the green forest at dawn '.repeat(150)}`;

interface AnthropicBody {
  readonly messages: readonly { role: string; content: unknown }[];
  readonly tools?: readonly { name: string }[];
}

const bodyOf = (model: FakeModelServer, index: number): AnthropicBody => model.requests[index]?.body as AnthropicBody;
const sentText = (model: FakeModelServer, index: number): string => JSON.stringify(bodyOf(model, index).messages);
const eventsOf = async (server: TestServer, id: string): Promise<RecordedEvent[]> => (await server.api('GET', `/api/sessions/${id}/events`)).body.events;
const ofType = (events: readonly RecordedEvent[], type: string) => events.filter((e) => e.type === type);
const lastUserMessageId = async (server: TestServer, id: string): Promise<string> => {
  const view = (await server.api('GET', `/api/sessions/${id}`)).body as { messages: { messageId: string; role: string }[]; supersededMessageIds: string[] };
  const users = view.messages.filter((m) => m.role === 'user' && !view.supersededMessageIds.includes(m.messageId));
  return users[users.length - 1]?.messageId ?? '';
};

/** P4: the messages of the request at `ModelRequested` #n, rebuilt from the stream alone. */
function rebuiltMessages(events: readonly RecordedEvent[], requestNumber: number): unknown {
  const at = ofType(events, 'ModelRequested')[requestNumber - 1] as RecordedEvent;
  return toAnthropicMessages(toChatMessages(replay(events.filter((e) => e.revision <= at.revision)), 'anthropic'));
}

function env(model: FakeModelServer): Record<string, string> {
  return {
    ONECLAW_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: MODEL_KEY,
    ANTHROPIC_BASE_URL: model.url,
    ONECLAW_PROVIDER_MAX_RETRIES: '0',
    ONECLAW_CONTEXT_WINDOW_TOKENS: '4000',
  };
}

describe('retry and edit of the last turn with a FAKE Anthropic model', () => {
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;

  beforeEach(async () => {
    model = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-retry-'));
    server = await startTestServer({ dataDir, env: env(model) });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(sessionId: string): Promise<void> {
    expect((await server.api('POST', '/api/sessions', { sessionId })).status).toBe(201);
  }

  it('S6 P4 retry after a provider_error turn streams a new turn for the same message, and survives a restart', async () => {
    await start('err');
    model.enqueue(fakeReply.error(529, { message: 'overloaded' }));
    const failed = await server.stream('/api/sessions/err/messages', { text: 'What is the capital of France?' });
    expect(failed.events.find((e) => e.event === 'turn_finished')?.data).toMatchObject({ reason: 'provider_error' });
    const messageId = await lastUserMessageId(server, 'err');

    model.enqueue(fakeReply.text('Paris.'));
    const retried = await server.stream('/api/sessions/err/retry', { messageId });
    expect(retried.status).toBe(200);
    // The same updates as a sent message.
    expect(retried.events.map((e) => e.event)).toEqual(['turn_started', 'model_requested', 'text_delta', 'assistant_message', 'turn_finished', 'done']);
    expect(retried.events.at(-1)?.data).toMatchObject({ reason: 'completed', reply: 'Paris.' });
    // One user message, sent once more.
    expect(bodyOf(model, 1).messages).toEqual(bodyOf(model, 0).messages);

    const events = await eventsOf(server, 'err');
    const [retry] = ofType(events, 'TurnRetried');
    expect(retry?.data).toMatchObject({ messageId, supersededMessageIds: [], turnId: retried.events[0]?.data.turnId });
    expect(ofType(events, 'MessageSent').filter((e) => (e.data as { role: string }).role === 'user')).toHaveLength(1);
    expect(ofType(events, 'TurnFinished').map((e) => (e.data as { reason: string }).reason)).toEqual(['provider_error', 'completed']);

    // P4 after a restart: the stream rebuilds the requests that were sent, and the next one.
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir, env: env(model) });
    model.enqueue(fakeReply.text('About 2 million.'));
    expect((await server.api('POST', '/api/sessions/err/messages', { text: 'How many people live there?' })).body).toMatchObject({ reason: 'completed' });
    expect(sentText(model, 2)).toContain('Paris.');
    const after = await eventsOf(server, 'err');
    [0, 1, 2].forEach((index) => expect(rebuiltMessages(after, index + 1)).toEqual(bodyOf(model, index).messages));
  });

  it('S6 retry for another answer: the model no longer receives the first answer, the view and audit keep it, loaded groups stay', async () => {
    await start('again');
    model.enqueue(fakeReply.toolCall('load_tool_group', { group_name: 'google_gmail' }), fakeReply.text('Joke one: mail tools are loaded.'));
    await server.api('POST', '/api/sessions/again/messages', { text: 'Load mail and tell me a joke' });
    const messageId = await lastUserMessageId(server, 'again');

    model.enqueue(fakeReply.text('Joke two.'));
    const retried = await server.api('POST', '/api/sessions/again/retry?include=session', { messageId });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ reason: 'completed', reply: 'Joke two.' });
    const sent = sentText(model, 2);
    expect(sent).toContain('Load mail and tell me a joke');
    expect(sent).not.toContain('Joke one');
    expect(sent).not.toContain('load_tool_group');
    // The group loaded by the superseded turn is state: still loaded, its tools still sent.
    expect((bodyOf(model, 2).tools ?? []).map((t) => t.name)).toEqual(expect.arrayContaining(['gmail_search']));

    const view = retried.body.session as { messages: { messageId: string; text?: string }[]; supersededMessageIds: string[]; loadedGroups: string[] };
    expect(view.loadedGroups).toEqual(['google_gmail']);
    const superseded = view.messages.filter((m) => view.supersededMessageIds.includes(m.messageId));
    expect(superseded.map((m) => m.text ?? '')).toEqual(['', '', 'Joke one: mail tools are loaded.']); // the call, its result, the answer
    expect(view.messages.at(-1)?.text).toBe('Joke two.');

    model.enqueue(fakeReply.text('Joke three.'));
    await server.api('POST', '/api/sessions/again/messages', { text: 'another one' });
    expect(sentText(model, 3)).not.toContain('Joke one');
    expect(sentText(model, 3)).toContain('Joke two.');

    const audit = await server.api('GET', '/api/sessions/again/audit?format=text');
    expect(audit.text).toMatch(/TurnRetried +retried: \S+ asked again as turn \S+ \(was turn \S+\); 3 messages superseded, no longer sent to the model/);
  });

  it('S6 P4 edit the last message: the replaced message and its answer are not sent again; replay gives the same requests after a restart', async () => {
    await start('edit');
    model.enqueue(fakeReply.text('Four.'), fakeReply.text('Five is wrong; 2+2 is four.'));
    await server.api('POST', '/api/sessions/edit/messages', { text: 'What is 2+2?' });
    await server.api('POST', '/api/sessions/edit/messages', { text: 'Are you sure it is not 5?' });
    const messageId = await lastUserMessageId(server, 'edit');

    model.enqueue(fakeReply.text('Six.'));
    const edited = await server.stream(`/api/sessions/edit/messages/${messageId}/edit`, { text: 'And 3+3?' });
    expect(edited.events.map((e) => e.event)).toEqual(['turn_started', 'model_requested', 'text_delta', 'assistant_message', 'turn_finished', 'done']);
    const sent = sentText(model, 2);
    expect(sent).toContain('What is 2+2?');
    expect(sent).toContain('And 3+3?');
    expect(sent).not.toContain('not 5');
    expect(sent).not.toContain('Five is wrong');

    const events = await eventsOf(server, 'edit');
    const [editedEvent] = ofType(events, 'UserMessageEdited');
    const newMessageId = `${edited.events[0]?.data.turnId}-user`;
    expect(editedEvent?.data).toEqual({ messageId, newMessageId, supersededMessageIds: [messageId, expect.any(String)] });
    expect(events[events.indexOf(editedEvent as RecordedEvent) + 1]?.data).toMatchObject({ messageId: newMessageId, role: 'user', text: 'And 3+3?' });
    const view = (await server.api('GET', '/api/sessions/edit')).body;
    expect(view.messages.map((m: { text: string }) => m.text)).toEqual(['What is 2+2?', 'Four.', 'Are you sure it is not 5?', 'Five is wrong; 2+2 is four.', 'And 3+3?', 'Six.']);
    expect(view.supersededMessageIds).toEqual((editedEvent?.data as { supersededMessageIds: string[] }).supersededMessageIds);
    expect((await server.api('GET', '/api/sessions/edit/audit?format=text')).text).toContain(
      `edited: user message ${messageId} replaced by ${newMessageId}; 2 messages superseded`,
    );

    await server.close({ keepData: true });
    server = await startTestServer({ dataDir, env: env(model) });
    model.enqueue(fakeReply.text('Eight.'));
    await server.api('POST', '/api/sessions/edit/messages', { text: 'And 4+4?' });
    expect(sentText(model, 3)).not.toContain('not 5');
    const after = await eventsOf(server, 'edit');
    [0, 1, 2, 3].forEach((index) => expect(rebuiltMessages(after, index + 1)).toEqual(bodyOf(model, index).messages));
  });

  it('a summary that covers the retried message is dropped: the model gets the conversation as before that turn', async () => {
    await start('cmp');
    model.enqueue(fakeReply.text('Noted.', { inputTokens: 1200, outputTokens: 3 }), fakeReply.text(LONG_ANSWER, { inputTokens: 1500, outputTokens: 1400 }));
    await server.api('POST', '/api/sessions/cmp/messages', { text: LONG_NOTE });
    await server.api('POST', '/api/sessions/cmp/messages', { text: 'Tell me a fox story' });
    // The long answer alone fills the protected recent part: the summary covers up to the question.
    model.enqueue(fakeReply.text('SUMMARY: a fox note, and a fox story was asked for.'));
    expect((await server.api('POST', '/api/sessions/cmp/compact', {})).body).toMatchObject({ compacted: true });
    const messageId = await lastUserMessageId(server, 'cmp');
    const [compacted] = ofType(await eventsOf(server, 'cmp'), 'ConversationCompacted');
    expect(compacted?.data).toMatchObject({ boundaryMessageId: messageId });

    model.enqueue(fakeReply.text('A short fox story.'));
    const retried = await server.api('POST', '/api/sessions/cmp/retry?include=session', { messageId });
    expect(retried.body).toMatchObject({ reason: 'completed', session: { summary: null } });
    const sent = sentText(model, 3);
    expect(sent).not.toContain(SUMMARY_HEADER.slice(1, 40));
    expect(sent).not.toContain('green forest');
    expect(sent).toContain('quick brown fox');
    expect(sent).toContain('Tell me a fox story');
    expect(ofType(await eventsOf(server, 'cmp'), 'ConversationCompacted')).toHaveLength(1); // the stream keeps it
  });

  it('refuses a stale message id, nothing to retry, a running turn and bad bodies with typed errors; an Idempotency-Key retry runs once', async () => {
    await start('rules');
    const nothing = await server.api('POST', '/api/sessions/rules/retry', {});
    expect(nothing.status).toBe(409);
    expect(nothing.body).toMatchObject({ code: 'nothing_to_retry' });
    expect((await server.api('POST', '/api/sessions/rules/messages/x/edit', { text: 'hi' })).body).toMatchObject({ code: 'nothing_to_edit' });

    model.enqueue(fakeReply.text('One.'), fakeReply.text('Two.'));
    await server.api('POST', '/api/sessions/rules/messages', { text: 'first' });
    const first = await lastUserMessageId(server, 'rules');
    await server.api('POST', '/api/sessions/rules/messages', { text: 'second' });

    // A client that has not seen "second" yet: refused before anything streams.
    const stale = await server.stream(`/api/sessions/rules/messages/${first}/edit`, { text: 'first, edited' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'not_last_user_message', messageId: first, detail: expect.stringContaining('Reload the conversation') });
    expect((await server.api('POST', '/api/sessions/rules/retry', { messageId: first })).body).toMatchObject({ code: 'not_last_user_message' });
    expect((await server.api('POST', '/api/sessions/rules/messages/x/edit', { text: '' })).body).toMatchObject({ code: 'invalid_body' });
    expect((await server.api('POST', '/api/sessions/rules/messages/x/edit', { text: 'hi', extra: 1 })).status).toBe(400);
    expect((await server.api('POST', '/api/sessions/nope/retry', {})).status).toBe(404);

    // Same Idempotency-Key twice: one retry is recorded; the second is a duplicate.
    model.enqueue(fakeReply.text('Two, again.'));
    const once = await server.api('POST', '/api/sessions/rules/retry', {}, { 'idempotency-key': 'retry-key-1' });
    expect(once.body).toMatchObject({ reason: 'completed', reply: 'Two, again.' });
    const twice = await server.api('POST', '/api/sessions/rules/retry', {}, { 'idempotency-key': 'retry-key-1' });
    expect(twice.body).toMatchObject({ code: 'duplicate_request' });
    expect(ofType(await eventsOf(server, 'rules'), 'TurnRetried')).toHaveLength(1);
    expect(model.requests).toHaveLength(3);

    // While a turn runs: 409 turn_in_progress for both, nothing recorded.
    model.enqueue(fakeReply.hang('Thinking'));
    const running = await openLiveSse(server, '/api/sessions/rules/messages', { text: 'third' });
    await running.until((events) => events.some((e) => e.event === 'text_delta'));
    const busy = await lastUserMessageId(server, 'rules');
    expect((await server.api('POST', '/api/sessions/rules/retry', {})).body).toMatchObject({ code: 'turn_in_progress' });
    expect((await server.api('POST', `/api/sessions/rules/messages/${busy}/edit`, { text: 'x' })).body).toMatchObject({ code: 'turn_in_progress' });
    await server.api('POST', '/api/sessions/rules/cancel', {});
    await running.end();
    expect(ofType(await eventsOf(server, 'rules'), 'TurnRetried')).toHaveLength(1);
    expect(ofType(await eventsOf(server, 'rules'), 'UserMessageEdited')).toHaveLength(0);
  });

  it('a request retried with its Idempotency-Key after a clear and newer turns answers 409 duplicate_request without calling the model (a message, and a /retry)', async () => {
    await start('keyed');
    const send = (text: string, key?: string) => server.api('POST', '/api/sessions/keyed/messages', { text }, key ? { 'idempotency-key': key } : {});
    model.enqueue(fakeReply.text('Booked.'));
    expect((await send('book the flight', 'K-1')).body).toMatchObject({ reason: 'completed', reply: 'Booked.' });
    expect((await server.api('POST', '/api/sessions/keyed/clear', {})).status).toBe(200);
    model.enqueue(fakeReply.text('Something.'), fakeReply.text('Something, again.'));
    expect((await send('something else')).body).toMatchObject({ reason: 'completed' });
    expect((await server.api('POST', '/api/sessions/keyed/retry', {}, { 'idempotency-key': 'R-1' })).body).toMatchObject({ reply: 'Something, again.' });
    model.enqueue(fakeReply.text('Third.'));
    expect((await send('third')).body).toMatchObject({ reason: 'completed' });
    const asked = model.requests.length;
    const recorded = (await eventsOf(server, 'keyed')).length;

    // Identical replies queued: if the model were called, the reply would look like the original's.
    model.enqueue(fakeReply.text('Booked.'), fakeReply.text('Something, again.'));
    const again = await send('book the flight', 'K-1');
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'duplicate_request' });
    const retried = await server.api('POST', '/api/sessions/keyed/retry', {}, { 'idempotency-key': 'R-1' });
    expect({ status: retried.status, code: retried.body.code }).toEqual({ status: 409, code: 'duplicate_request' });
    expect(model.requests).toHaveLength(asked);
    expect(await eventsOf(server, 'keyed')).toHaveLength(recorded);
  });
});

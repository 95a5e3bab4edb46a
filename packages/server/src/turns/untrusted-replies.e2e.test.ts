import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { replay, type AssistantMessageData, type RecordedEvent, type ToolResultMessageData } from '@oneclaw/core';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { startTestServer, type TestServer } from '../testing/test-server';

/**
 * The model is untrusted input: a reply with repeated or missing call ids, or one over the
 * store's 1 MiB append limit, is recorded (changed, and saying how) and the turn goes on. Real
 * HTTP to a booted server with its SQLite store, a loopback FAKE Anthropic model.
 */
const KEY = 'sk-ant-untrusted-replies-key-000';
const MiB = 1024 * 1024;

const messages = (events: readonly RecordedEvent[], role: string) =>
  events.filter((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === role).map((e) => e.data);
const storedBytes = (e: RecordedEvent) => Buffer.byteLength(JSON.stringify(e.data)) + Buffer.byteLength(JSON.stringify(e.metadata));

describe('untrusted model replies over HTTP (fake Anthropic model)', () => {
  let model: FakeModelServer;
  let server: TestServer;

  beforeEach(async () => {
    model = await startFakeModelServer('anthropic', { apiKey: KEY });
    server = await startTestServer({ env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url, ONECLAW_PROVIDER_MAX_RETRIES: '0' } });
    await server.api('POST', '/api/sessions', { sessionId: 's' });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
  });

  const send = (text: string) => server.api('POST', '/api/sessions/s/messages', { text });
  const eventsOf = async (): Promise<RecordedEvent[]> => (await server.api('GET', '/api/sessions/s/events')).body.events;

  it('tool calls sharing an id, or with no id or no name, each get an id of their own and a result; the turn completes and replays the same', async () => {
    model.enqueue(
      fakeReply.toolCalls(
        { name: 'get_current_time', arguments: {}, callId: 'toolu_same' },
        { name: 'get_current_time', arguments: { timezone: 'UTC' }, callId: 'toolu_same' },
        { name: 'get_current_time', arguments: {}, callId: '' },
        { name: '', arguments: {}, callId: 'toolu_nameless' },
      ),
      fakeReply.text('It is now.'),
    );
    const turn = await send('what time is it, three times?');
    expect(turn.status).toBe(200);
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'It is now.' });

    const events = await eventsOf();
    const [assistant] = messages(events, 'assistant') as AssistantMessageData[];
    expect(assistant?.toolCalls.map((c) => [c.callId, c.toolName])).toEqual([
      ['toolu_same', 'get_current_time'],
      ['toolu_same_2', 'get_current_time'],
      ['call_r1_3', 'get_current_time'],
      ['toolu_nameless', 'missing_tool_name'],
    ]);
    expect(assistant?.adjustments).toEqual({
      renamedCalls: [
        { callId: 'toolu_same_2', originalCallId: 'toolu_same' },
        { callId: 'call_r1_3', originalCallId: '' },
      ],
      unnamedCalls: ['toolu_nameless'],
      // The third call is the first again (same tool, same arguments): answered with its result.
      duplicateCalls: [{ callId: 'call_r1_3', sameAs: 'toolu_same' }],
    });
    const results = messages(events, 'tool') as ToolResultMessageData[];
    expect(results.map((r) => [r.callId, r.status, r.status === 'error' ? r.errorType : ''])).toEqual([
      ['toolu_same', 'success', ''],
      ['toolu_same_2', 'success', ''],
      ['call_r1_3', 'success', ''],
      ['toolu_nameless', 'error', 'tool_not_found'],
    ]);
    expect(replay(events)).toMatchObject({ pendingToolCalls: new Map(), openTurn: null });

    // The model is shown each call with its own id and the result that answers it.
    const second = model.requests[1]?.body as { messages: { content: unknown }[] };
    const blocks = second.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; id?: string; tool_use_id?: string }[]) : []));
    const ids = ['toolu_same', 'toolu_same_2', 'call_r1_3', 'toolu_nameless'];
    expect(blocks.filter((b) => b.type === 'tool_use').map((b) => b.id)).toEqual(ids);
    expect(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id)).toEqual(ids);

    const audit = (await server.api('GET', '/api/sessions/s/audit')).body;
    expect(JSON.stringify(audit)).toContain(
      'repeated call id toolu_same renamed toolu_same_2; call without id named call_r1_3; call toolu_nameless had no tool name; call call_r1_3 repeats toolu_same, run once',
    );
  });

  it('a whitespace-only reply is recorded as it came, and the next turn still reaches the model (no blank text block sent, which Anthropic refuses)', async () => {
    model.enqueue(fakeReply.text('  \n '), fakeReply.text('Hello again.'));
    expect((await send('hi')).body).toMatchObject({ reason: 'completed' });
    const next = await send('are you there?');
    expect(next.body).toMatchObject({ reason: 'completed', reply: 'Hello again.' });
    expect((messages(await eventsOf(), 'assistant') as AssistantMessageData[]).map((m) => m.text)).toEqual(['  \n ', 'Hello again.']);
    const sent = model.requests[1]?.body as { messages: { role: string; content: { type: string; text?: string }[] }[] };
    expect(sent.messages.map((m) => [m.role, m.content.map((b) => b.text)])).toEqual([['user', ['hi', 'are you there?']]]);
  });

  it('the same call id in every round (a server without ids) still reaches Anthropic once per id; each result answers its own call', async () => {
    model.enqueue(
      fakeReply.toolCalls({ name: 'get_current_time', arguments: {}, callId: 'call_0' }),
      fakeReply.text('First.'),
      fakeReply.toolCalls({ name: 'get_current_time', arguments: { timezone: 'UTC' }, callId: 'call_0' }),
      fakeReply.text('Second.'),
    );
    expect((await send('time?')).body).toMatchObject({ reason: 'completed', reply: 'First.' });
    expect((await send('and in UTC?')).body).toMatchObject({ reason: 'completed', reply: 'Second.' });
    // Recorded as the model sent them: both calls are call_0.
    expect((messages(await eventsOf(), 'tool') as ToolResultMessageData[]).map((r) => r.callId)).toEqual(['call_0', 'call_0']);
    const last = model.requests[3]?.body as { messages: { content: { type: string; id?: string; tool_use_id?: string }[] }[] };
    const ids = last.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : b.type === 'tool_result' ? [b.tool_use_id] : [])));
    expect(ids).toEqual(['call_0', 'call_0', 'call_0_2', 'call_0_2']);
  });

  it('arguments nested deep enough to overflow a recursive walk (a few KB of [[[...]]]) are refused as a validation_error and recorded as a marker; the turn completes', async () => {
    const deep = `{"path":"x.txt","content":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    model.enqueue(fakeReply.toolCalls({ name: 'write_file', arguments: {}, argumentsText: deep, callId: 'toolu_deep' }), fakeReply.text('That did not work.'));
    const turn = await send('write something odd');
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'That did not work.' });
    const events = await eventsOf();
    const [assistant] = messages(events, 'assistant') as AssistantMessageData[];
    expect(assistant?.toolCalls[0]?.arguments).toEqual({ _cut: expect.stringContaining('nest deeper than 64 levels') });
    const [result] = messages(events, 'tool') as ToolResultMessageData[];
    expect(result).toMatchObject({
      callId: 'toolu_deep',
      status: 'error',
      errorType: 'validation_error',
      message: expect.stringContaining('the arguments nest deeper than 64 levels'),
    });
  });

  it('the same call twice in one reply (same tool, same arguments) runs once: the file is appended once, the repeat gets the first result with a note, the turn goes on', async () => {
    const append = { path: 'log.txt', content: 'one line\n', mode: 'append' };
    model.enqueue(
      fakeReply.toolCalls(
        { name: 'write_file', arguments: append, callId: 'toolu_a' },
        { name: 'write_file', arguments: { mode: 'append', content: 'one line\n', path: 'log.txt' }, callId: 'toolu_b' },
      ),
      fakeReply.text('Logged.'),
    );
    const turn = await send('log one line');
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'Logged.' });
    expect(readFileSync(path.join(server.dataDir, 'files', 'log.txt'), 'utf8')).toBe('one line\n');

    const events = await eventsOf();
    const [assistant] = messages(events, 'assistant') as AssistantMessageData[];
    expect(assistant?.adjustments).toEqual({ duplicateCalls: [{ callId: 'toolu_b', sameAs: 'toolu_a' }] });
    const results = messages(events, 'tool') as ToolResultMessageData[];
    expect(results.map((r) => [r.callId, r.status])).toEqual([
      ['toolu_a', 'success'],
      ['toolu_b', 'success'],
    ]);
    const [first, repeat] = results.map((r) => (r.status === 'success' ? r.result : ''));
    expect(repeat).toBe(`${first}\n\n[OneClaw: this call repeats toolu_a of the same reply (same tool, same arguments), so it was not run again; this is the result of toolu_a.]`);
    // The model reads both answers, each under its own id.
    const second = model.requests[1]?.body as { messages: { content: unknown }[] };
    const blocks = second.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; tool_use_id?: string }[]) : []));
    expect(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id)).toEqual(['toolu_a', 'toolu_b']);
  });

  it('a reply over the 1 MiB append limit is recorded cut, with a note in the text and its sizes on the message; the turn completes', async () => {
    const story = 'Once upon a time. '.repeat(70_000); // 1.26 MB
    model.enqueue(fakeReply.text([story]));
    const turn = await send('tell me a very long story');
    expect(turn.status).toBe(200);
    expect(turn.body.reason).toBe('completed');

    const events = await eventsOf();
    const assistantEvent = events.find((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'assistant') as RecordedEvent;
    const assistant = assistantEvent.data as AssistantMessageData;
    expect(storedBytes(assistantEvent)).toBeLessThanOrEqual(MiB);
    expect(story.startsWith(assistant.text.split('\n\n[OneClaw:')[0] as string)).toBe(true);
    expect(assistant.text).toMatch(/\[OneClaw: the reply was cut here to fit the record size limit; \d+ of 1260000 bytes kept\.\]$/);
    expect(assistant.adjustments?.cut).toMatchObject({ textBytes: 1_260_000, argumentsCut: [], providerMetadataDropped: false });
    expect(turn.body.reply).toBe(assistant.text);
    expect(events.at(-1)?.type).toBe('TurnFinished');
    const audit = (await server.api('GET', '/api/sessions/s/audit')).body;
    expect(JSON.stringify(audit)).toContain('of 1260000 bytes kept');
  });

  it('tool-call arguments over the limit are recorded as a marker, the tool runs with them in full, and the turn completes', async () => {
    const content = 'x'.repeat(1_200_000);
    model.enqueue(fakeReply.toolCall('write_file', { path: 'big.txt', content }, 'Saving it.'), fakeReply.text('Saved.'));
    const turn = await send('save a big file');
    expect(turn.status).toBe(200);
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'Saved.' });

    const events = await eventsOf();
    const [assistant] = messages(events, 'assistant') as AssistantMessageData[];
    const callId = assistant?.toolCalls[0]?.callId as string;
    expect(assistant?.text).toBe('Saving it.');
    expect(assistant?.toolCalls[0]?.arguments).toEqual({ _cut: expect.stringContaining('1200031 bytes') });
    expect(assistant?.adjustments?.cut).toMatchObject({ argumentsCut: [callId], keptTextBytes: 10 });
    expect((messages(events, 'tool') as ToolResultMessageData[]).map((r) => r.status)).toEqual(['success']);
    expect(readFileSync(path.join(server.dataDir, 'files', 'big.txt'), 'utf8')).toBe(content);
  });
});

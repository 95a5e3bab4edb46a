import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { replay, type AssistantMessageData, type RecordedEvent, type ToolResultMessageData } from '@oneclaw/core';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { startTestServer, type TestServer } from '../testing/test-server';

/**
 * A model reply whose record would not fit the store's append limit (1 MiB) in size or in
 * count: megabyte call ids and tool names, thousands of calls, rounds of large results. Each is
 * recorded (changed, and saying how), the turn ends with a recorded outcome, the next turn
 * works, and the stream replays to the state the server holds. Real HTTP to a booted server with
 * its SQLite store, a loopback FAKE OpenAI-compatible model.
 */
const KEY = 'sk-oversized-replies-key-0000000';
const MiB = 1024 * 1024;

const messages = (events: readonly RecordedEvent[], role: string) =>
  events.filter((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === role).map((e) => e.data);

describe('oversized model replies over HTTP (fake OpenAI model)', () => {
  let model: FakeModelServer;
  let server: TestServer;

  const start = async (env: Readonly<Record<string, string>> = {}) => {
    server = await startTestServer({ env: { ONECLAW_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: model.url, ONECLAW_PROVIDER_MAX_RETRIES: '0', ...env } });
    await server.api('POST', '/api/sessions', { sessionId: 's' });
  };

  beforeEach(async () => {
    model = await startFakeModelServer('openai', { apiKey: KEY });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
  });

  const send = (text: string) => server.api('POST', '/api/sessions/s/messages', { text });
  const eventsOf = async (): Promise<RecordedEvent[]> => (await server.api('GET', '/api/sessions/s/events')).body.events;

  /** The turn's stream ends closed and replays to what the server reads; then another message is answered. */
  const expectRecordedAndNextTurnWorks = async () => {
    const events = await eventsOf();
    expect(events.at(-1)?.type).toBe('TurnFinished');
    const replayed = replay(events);
    expect(replayed).toMatchObject({ pendingToolCalls: new Map(), openTurn: null });
    const session = (await server.api('GET', '/api/sessions/s')).body;
    expect(session.messages.length).toBe(replayed.messages.length);
    model.enqueue(fakeReply.text('Still here.'));
    const next = await send('are you there?');
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ reason: 'completed', reply: 'Still here.' });
  };

  it('a call id and a tool name of 2 MB are recorded as a generated id and a placeholder name (only their start kept); the call is answered tool_not_found and the turn completes', async () => {
    await start();
    model.enqueue(
      fakeReply.toolCalls(
        { name: 'get_current_time', arguments: {}, callId: 'b'.repeat(2_000_000) },
        { name: `get_current_time${'c'.repeat(2_000_000)}`, arguments: {}, callId: 'call_long_name' },
      ),
      fakeReply.text('Done.'),
    );
    const turn = await send('what time is it?');
    expect(turn.status).toBe(200);
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'Done.' });

    const events = await eventsOf();
    for (const e of events) expect(Buffer.byteLength(JSON.stringify(e))).toBeLessThan(MiB / 4);
    const [assistant] = messages(events, 'assistant') as AssistantMessageData[];
    expect(assistant?.toolCalls.map((c) => [c.callId, c.toolName])).toEqual([
      ['call_r1_1', 'get_current_time'],
      ['call_long_name', 'tool_name_too_long'],
    ]);
    expect(assistant?.adjustments).toEqual({
      renamedCalls: [{ callId: 'call_r1_1', originalCallId: 'b'.repeat(128), originalCallIdChars: 2_000_000 }],
      longToolNames: [{ callId: 'call_long_name', start: `get_current_time${'c'.repeat(48)}`, chars: 2_000_016 }],
    });
    const results = messages(events, 'tool') as ToolResultMessageData[];
    expect(results.map((r) => [r.callId, r.status === 'error' ? r.errorType : r.status])).toEqual([
      ['call_r1_1', 'success'],
      ['call_long_name', 'tool_not_found'],
    ]);
    // The model is sent the recorded ids and names, not the megabytes it sent.
    expect(Buffer.byteLength(JSON.stringify(model.requests[1]?.body))).toBeLessThan(MiB / 4);
    await expectRecordedAndNextTurnWorks();
  }, 60_000);

  it('a reply of 3000 calls is recorded with its first 128 (the rest dropped, said in the text the model reads back); the turn completes and the session takes the next message', async () => {
    await start();
    model.enqueue(fakeReply.toolCalls(...Array.from({ length: 3000 }, (_, i) => ({ name: 'get_current_time', arguments: {}, callId: `call_${i}` }))), fakeReply.text('It is now.'));
    const turn = await send('what time is it?');
    expect(turn.status).toBe(200);
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'It is now.' });

    const events = await eventsOf();
    const [assistant] = messages(events, 'assistant') as AssistantMessageData[];
    expect(assistant?.toolCalls.map((c) => c.callId)).toEqual(Array.from({ length: 128 }, (_, i) => `call_${i}`));
    expect(assistant?.adjustments?.callsDropped).toEqual({ limit: 128, count: 2872 });
    const note =
      '[OneClaw: this reply had 3000 tool calls, over the limit of 128 per reply; only the first 128 were taken, the other 2872 were not run and are not in this record. Send the ones still needed in a later reply.]';
    expect(assistant?.text).toBe(note);
    expect((messages(events, 'tool') as ToolResultMessageData[]).map((r) => r.callId)).toEqual(assistant?.toolCalls.map((c) => c.callId));

    // The model's next request holds the 128 calls, their 128 results and the note.
    const second = model.requests[1]?.body as { messages: { role: string; content?: unknown; tool_calls?: unknown[] }[] };
    const reply = second.messages.find((m) => m.role === 'assistant');
    expect(reply?.content).toBe(note);
    expect(reply?.tool_calls).toHaveLength(128);
    expect(second.messages.filter((m) => m.role === 'tool')).toHaveLength(128);
    const audit = (await server.api('GET', '/api/sessions/s/audit')).body;
    expect(JSON.stringify(audit)).toContain('2872 calls over the limit of 128 per reply dropped');
    await expectRecordedAndNextTurnWorks();
  }, 60_000);

  it('a round of results over the 1 MiB append limit together (8 of 30 000 control characters, 180 KB each as JSON, and repeats of one) is recorded in several appends; every call has its own result and the turn completes', async () => {
    // A window these results fit, so no compaction runs between the rounds.
    await start({ ONECLAW_CONTEXT_WINDOW_TOKENS: '10000000' });
    const distinct = Array.from({ length: 8 }, (_, i) => ({ name: 'js_eval', arguments: { code: `'\\u0001'.repeat(29990) + ${i}` }, callId: `call_${i}` }));
    // A repeat of a call is not run again but records the same result in full under its own id.
    const repeats = Array.from({ length: 3 }, (_, i) => ({ ...(distinct[0] as (typeof distinct)[number]), callId: `call_repeat_${i}` }));
    model.enqueue(fakeReply.toolCalls(...distinct, ...repeats), fakeReply.text('Done.'));
    const turn = await send('make some noise');
    expect(turn.status).toBe(200);
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'Done.' });

    const events = await eventsOf();
    const results = messages(events, 'tool') as ToolResultMessageData[];
    expect(results.map((r) => [r.callId, r.status])).toEqual([...distinct, ...repeats].map((c) => [c.callId, 'success']));
    const stored = results.map((r) => (r.status === 'success' ? r.result : ''));
    expect(stored.slice(0, 8)).toEqual(distinct.map((_, i) => `${'\u0001'.repeat(29990)}${i}`));
    const together = events
      .filter((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'tool')
      .reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e.data)), 0);
    expect(together).toBeGreaterThan(1.5 * MiB);
    // The model read every result of the round.
    const second = model.requests[1]?.body as { messages: { role: string; tool_call_id?: string }[] };
    expect(second.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual([...distinct, ...repeats].map((c) => c.callId));
    await expectRecordedAndNextTurnWorks();
  }, 60_000);

  it('a result that would not fit one append under a lower limit (ONECLAW_MAX_APPEND_BYTES) is cut by its bytes, with a note; the turn completes', async () => {
    await start({ ONECLAW_MAX_APPEND_BYTES: String(64 * 1024) });
    model.enqueue(fakeReply.toolCalls({ name: 'js_eval', arguments: { code: `'\\u0001'.repeat(29000)` }, callId: 'call_noise' }), fakeReply.text('Done.'));
    const turn = await send('make some noise');
    expect(turn.status).toBe(200);
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'Done.' });

    const events = await eventsOf();
    const resultEvent = events.find((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'tool') as RecordedEvent;
    expect(Buffer.byteLength(JSON.stringify(resultEvent.data)) + Buffer.byteLength(JSON.stringify(resultEvent.metadata))).toBeLessThanOrEqual(64 * 1024);
    const result = resultEvent.data as ToolResultMessageData;
    expect(result.status === 'success' ? result.result : '').toMatch(
      /^\u0001+\n\n\[OneClaw: the tool result was cut here to fit the record size limit; \d+ of 29000 bytes kept\.\]$/,
    );
    await expectRecordedAndNextTurnWorks();
  }, 60_000);
});

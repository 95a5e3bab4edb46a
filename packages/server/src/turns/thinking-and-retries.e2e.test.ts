import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { AssistantMessageData, RecordedEvent } from '@oneclaw/core';
import { startFakeModelServer, type FakeModelServer, fakeGate, fakeReply } from '@oneclaw/model-providers/testing';
import { openLiveSse } from '../testing/live-sse';
import { startTestServer, type SseEvent, type TestServer } from '../testing/test-server';

/**
 * What the user sees while waiting (S6): which model answers, the provider's retries, and the
 * model's streamed reasoning. Real HTTP and SSE to a booted server with its SQLite store, a
 * loopback FAKE OpenAI-compatible model sending DeepSeek-style `reasoning_content`.
 */
const KEY = 'sk-thinking-e2e-model-key-0123456789';
const MODEL = 'deepseek-reasoner';

const assistants = (events: readonly RecordedEvent[]) =>
  events.filter((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'assistant').map((e) => e.data as AssistantMessageData);
const names = (events: readonly SseEvent[]) => events.map((e) => e.event);
const joined = (events: readonly SseEvent[], type: string) =>
  events
    .filter((e) => e.event === type)
    .map((e) => (e.data as { text: string }).text)
    .join('');

describe('S6 model shown, provider retries and streamed reasoning over HTTP (FAKE OpenAI-compatible model)', () => {
  let model: FakeModelServer;
  let server: TestServer;

  beforeEach(async () => {
    model = await startFakeModelServer('openai', { apiKey: KEY });
    server = await startTestServer({
      env: { ONECLAW_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: model.url, ONECLAW_MODEL: MODEL, ONECLAW_PROVIDER_MAX_RETRIES: '2' },
    });
    await server.api('POST', '/api/sessions', { sessionId: 's' });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
  });

  const eventsOf = async (): Promise<RecordedEvent[]> => (await server.api('GET', '/api/sessions/s/events')).body.events;

  it('S6 a FAKE 503 and 429 stream provider_retry updates (attempt, wait, reason) before the reply; retries are not recorded as events', async () => {
    model.enqueue(fakeReply.error(503), fakeReply.rateLimited(0), fakeReply.text('Finally.'));
    const { events } = await server.stream('/api/sessions/s/messages', { text: 'hi' });
    const retries = events.filter((e) => e.event === 'provider_retry').map((e) => e.data);
    expect(retries).toEqual([
      // No retry-after on the 503: the server's own backoff (1 s first); the 429 asked for 0 s.
      { type: 'provider_retry', provider: 'openai', model: MODEL, attempt: 2, maxAttempts: 3, waitMs: 1000, reason: 'provider_unavailable', status: 503 },
      { type: 'provider_retry', provider: 'openai', model: MODEL, attempt: 3, maxAttempts: 3, waitMs: 0, reason: 'provider_rate_limited', status: 429 },
    ]);
    expect(names(events).indexOf('provider_retry')).toBeGreaterThan(names(events).indexOf('model_requested'));
    expect(names(events).lastIndexOf('provider_retry')).toBeLessThan(names(events).indexOf('text_delta'));
    expect(events.at(-2)).toMatchObject({ event: 'turn_finished', data: { reason: 'completed' } });

    const stored = await eventsOf();
    expect(stored.map((e) => e.type)).toEqual(['SessionStarted', 'MessageSent', 'ModelRequested', 'MessageSent', 'TurnFinished']);
  });

  it('S6 model_requested and the assistant message name the provider and model; the stored message and the session view do too', async () => {
    model.enqueue(fakeReply.text('Hello.'));
    const { events } = await server.stream('/api/sessions/s/messages', { text: 'hi' });
    expect(events.find((e) => e.event === 'model_requested')?.data).toMatchObject({ round: 1, provider: 'openai', model: MODEL });
    expect(events.find((e) => e.event === 'assistant_message')?.data).toMatchObject({ text: 'Hello.', provider: 'openai', model: MODEL });
    expect(events.find((e) => e.event === 'assistant_message')?.data).not.toHaveProperty('reasoning');

    expect(assistants(await eventsOf())).toEqual([expect.objectContaining({ text: 'Hello.', provider: 'openai', model: MODEL })]);
    // No reasoning set for the model: none asked, none recorded.
    expect((await eventsOf()).find((e) => e.type === 'ModelRequested')?.data).not.toHaveProperty('reasoningEffort');
    const view = (await server.api('GET', '/api/sessions/s')).body;
    expect(view.messages.at(-1)).toMatchObject({ role: 'assistant', provider: 'openai', model: MODEL });
  });

  it('S6 reasoning streams as reasoning_delta before the text, is recorded with the message (secrets redacted) and is never sent back to the model', async () => {
    model.enqueue({ thinking: ['The user ', `pasted ${KEY} `, 'by mistake.'], text: 'Done.' }, fakeReply.text('Second.'));
    const { events } = await server.stream('/api/sessions/s/messages', { text: 'think first' });
    expect(names(events).indexOf('reasoning_delta')).toBeLessThan(names(events).indexOf('text_delta'));
    const streamedReasoning = joined(events, 'reasoning_delta');
    expect(streamedReasoning).toBe('The user pasted [Redacted] by mistake.');
    expect(events.find((e) => e.event === 'assistant_message')?.data).toMatchObject({ text: 'Done.', reasoning: streamedReasoning });

    const [assistant] = assistants(await eventsOf());
    expect(assistant).toMatchObject({ text: 'Done.', reasoning: 'The user pasted [Redacted] by mistake.', provider: 'openai', model: MODEL });
    expect(JSON.stringify(await eventsOf())).not.toContain(KEY);

    await server.stream('/api/sessions/s/messages', { text: 'again' });
    expect(JSON.stringify(model.requests[1]?.body)).not.toContain('by mistake');
  });

  it('S6 a reply held by the FAKE model: the stream says which model was asked before any token, and the reasoning of a cancelled reply is kept with its text', async () => {
    const gate = fakeGate();
    model.enqueue({ waitFor: gate.opened, thinking: 'Pondering. ', text: 'Partial answer ', hang: true });
    const live = await openLiveSse(server, '/api/sessions/s/messages', { text: 'slow one' });
    const early = await live.until((events) => names(events).includes('model_requested'));
    expect(names(early)).toEqual(['turn_started', 'model_requested']);
    gate.release();
    await live.until((events) => joined(events, 'text_delta') === 'Partial answer ');
    expect((await server.api('POST', '/api/sessions/s/cancel')).body).toMatchObject({ cancelled: true });
    const events = await live.end();
    expect(events.find((e) => e.event === 'assistant_message')?.data).toMatchObject({ partial: true, text: 'Partial answer ', reasoning: 'Pondering. ', model: MODEL });
    expect(assistants(await eventsOf())).toEqual([expect.objectContaining({ partial: true, text: 'Partial answer ', reasoning: 'Pondering. ', provider: 'openai', model: MODEL })]);
  });
});

describe('S6 reasoning asked of a FAKE Anthropic model: signed thinking blocks and secrets', () => {
  const ANTHROPIC_KEY = 'sk-ant-thinking-e2e-key-9876543210';
  let model: FakeModelServer;
  let server: TestServer;

  beforeEach(async () => {
    model = await startFakeModelServer('anthropic', { apiKey: ANTHROPIC_KEY });
    server = await startTestServer({
      env: {
        ONECLAW_PROVIDER: 'anthropic',
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: model.url,
        ONECLAW_MODEL: 'claude-sonnet-4-5',
        ONECLAW_PROVIDER_MAX_RETRIES: '0',
      },
    });
    expect((await server.api('PATCH', '/api/providers/env/models/claude-sonnet-4-5', { reasoning: 'low' })).status).toBe(200);
    await server.api('POST', '/api/sessions', { sessionId: 's' });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
  });

  const eventsOf = async (): Promise<RecordedEvent[]> => (await server.api('GET', '/api/sessions/s/events')).body.events;
  const chat = () => model.requests.filter((r) => r.method === 'POST').map((r) => r.body as { thinking?: unknown; messages: { role: string; content: { type: string }[] }[] });

  it('S6 the signed thinking of a tool-calling reply is recorded and sent back first, so the tool loop keeps thinking', async () => {
    model.enqueue({ thinking: 'Check the time.', toolCalls: [{ name: 'get_current_time', arguments: {} }] }, fakeReply.text('It is late.'));
    expect((await server.api('POST', '/api/sessions/s/messages', { text: 'what time is it?' })).body).toMatchObject({ reason: 'completed', reply: 'It is late.' });
    const [first, second] = chat();
    expect(first?.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(second?.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(second?.messages[1]).toMatchObject({ role: 'assistant', content: [{ type: 'thinking' }, { type: 'tool_use' }] });
    const [assistant] = assistants(await eventsOf());
    expect(assistant).toMatchObject({ reasoning: 'Check the time.', providerMetadata: { provider: 'anthropic' } });
    // Each request records the effort it was made with, so a later change of the setting leaves the audit true.
    expect((await server.api('PATCH', '/api/providers/env/models/claude-sonnet-4-5', { reasoning: 'high' })).status).toBe(200);
    const requested = (await eventsOf()).filter((e) => e.type === 'ModelRequested').map((e) => (e.data as { reasoningEffort?: unknown }).reasoningEffort);
    expect(requested).toEqual(['low', 'low']);
    expect((await server.api('GET', '/api/sessions/s/audit?format=text')).text).toMatch(
      /model request #2 anthropic\/claude-sonnet-4-5: \d+ tools, \d+ schema tokens, reasoning set to low\n/,
    );
  });

  it('S6 thinking that holds a secret: the signed blocks are not recorded (a signed block cannot be redacted), the reply says so, and the loop goes on without thinking', async () => {
    model.enqueue({ thinking: `The key is ${ANTHROPIC_KEY}.`, toolCalls: [{ name: 'get_current_time', arguments: {} }] }, fakeReply.text('Done.'));
    expect((await server.api('POST', '/api/sessions/s/messages', { text: 'go' })).body).toMatchObject({ reason: 'completed', reply: 'Done.' });
    const stored = await eventsOf();
    const [assistant] = assistants(stored);
    expect(assistant).toMatchObject({ reasoning: 'The key is [Redacted].', adjustments: { providerMetadataWithheld: true } });
    expect(assistant).not.toHaveProperty('providerMetadata');
    expect(JSON.stringify(stored)).not.toContain(ANTHROPIC_KEY);
    // Without its blocks the turn cannot go on thinking (the API would refuse it), so the next request asks for none.
    expect(chat()[1]).not.toHaveProperty('thinking');
    expect((await server.api('GET', '/api/sessions/s/audit?format=text')).text).toContain('provider state held a secret and was not recorded');
  });
});

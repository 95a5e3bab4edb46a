import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { expectProviderError } from '../testing/expect-provider-error';
import type { ToolPayload } from '@oneclaw/tool-registry';
import { captureRejection } from '../testing/fake-model/capture-rejection';
import { fakeReply } from '../testing/fake-model/fake-reply';
import { startFakeModelServer, type FakeModelServer } from '../testing/fake-model-server';
import type { ChatMessage, ModelRequest } from '../model-provider';
import { OpenAiCompatibleProvider } from './openai-compatible-provider';
import { ProviderError } from '../shared/provider-error';

const KEY = 'sk-test-OPENAI-secret-0123456789';
const FAST = { maxRetries: 2, retryDelayCapMs: 1, retryBaseDelayMs: 1 };

const TOOLS: ToolPayload = {
  provider: 'openai',
  tools: [
    {
      type: 'function',
      function: { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
    },
  ],
};

function request(messages: readonly ChatMessage[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'gpt-test', system: 'You are terse.', messages, tools: TOOLS, ...extra };
}

const HELLO: ChatMessage[] = [{ role: 'user', text: 'Hello' }];

const providerError = (promise: Promise<unknown>): Promise<ProviderError> => expectProviderError(promise, KEY);

describe('S2 OpenAI-compatible provider against a loopback fake OpenAI server', () => {
  let fake: FakeModelServer;
  let provider: OpenAiCompatibleProvider;

  beforeEach(async () => {
    fake = await startFakeModelServer('openai', { apiKey: KEY });
    provider = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: fake.url, ...FAST });
  });
  afterEach(() => fake.close());

  it('streams text deltas in order and returns the whole reply with usage', async () => {
    fake.enqueue(fakeReply.text(['Hel', 'lo, ', 'world', '!'], { inputTokens: 21, outputTokens: 4 }));
    const deltas: string[] = [];
    const reply = await provider.complete(request(HELLO), { onTextDelta: (t) => deltas.push(t) });
    expect(deltas).toEqual(['Hel', 'lo, ', 'world', '!']);
    expect(reply).toEqual({ text: 'Hello, world!', toolCalls: [], usage: { inputTokens: 21, outputTokens: 4 }, stopReason: 'stop' });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('S6 streams DeepSeek-style reasoning_content as reasoning deltas, apart from the answer, and never sends it back', async () => {
    fake.enqueue({ thinking: ['The user ', 'greets me.'], text: 'Hello!' }, fakeReply.text('Again.'));
    const reasoning: string[] = [];
    const text: string[] = [];
    const reply = await provider.complete(request(HELLO), { onReasoningDelta: (t) => reasoning.push(t), onTextDelta: (t) => text.push(t) });
    expect(reasoning).toEqual(['The user ', 'greets me.']);
    expect(text).toEqual(['Hello!']);
    expect(reply).toMatchObject({ text: 'Hello!', reasoning: 'The user greets me.' });
    await provider.complete(request([...HELLO, { role: 'assistant', text: reply.text, toolCalls: [] }, { role: 'user', text: 'More' }]));
    expect(JSON.stringify(fake.requests[1]?.body)).not.toContain('greets me');
  });

  it("S6 reads OpenRouter's `reasoning` delta field the same way; a reply without reasoning has no reasoning field", async () => {
    fake.enqueue({ thinking: 'Short thought.', reasoningField: 'reasoning', text: 'Done.' }, fakeReply.text('Plain.'));
    const reasoning: string[] = [];
    expect(await provider.complete(request(HELLO), { onReasoningDelta: (t) => reasoning.push(t) })).toMatchObject({ text: 'Done.', reasoning: 'Short thought.' });
    expect(reasoning.join('')).toBe('Short thought.');
    expect(await provider.complete(request(HELLO))).not.toHaveProperty('reasoning');
  });

  it('S6 tells the caller about each retry (attempt, wait, reason, status) before waiting', async () => {
    fake.enqueue(fakeReply.rateLimited(3), fakeReply.error(503), fakeReply.text('third time'));
    const notices: unknown[] = [];
    const reply = await provider.complete(request(HELLO), { onRetry: (n) => notices.push(n) });
    expect(reply.text).toBe('third time');
    // FAST caps every wait at 1 ms; retry-after asked for 3 s.
    expect(notices).toEqual([
      { attempt: 2, maxAttempts: 3, waitMs: 1, reason: 'provider_rate_limited', status: 429 },
      { attempt: 3, maxAttempts: 3, waitMs: 1, reason: 'provider_unavailable', status: 503 },
    ]);
  });

  it('accumulates tool calls whose arguments arrive in several chunks', async () => {
    fake.enqueue({
      text: 'Reading.',
      toolCalls: [
        { name: 'read_file', arguments: { path: 'notes/a very long file name.txt', encoding: 'utf8' } },
        { name: 'read_file', arguments: { path: 'b.txt' } },
      ],
    });
    const reply = await provider.complete(request(HELLO));
    expect(reply.stopReason).toBe('tool_calls');
    expect(reply.text).toBe('Reading.');
    expect(reply.toolCalls).toEqual([
      { callId: 'call_fake_1_0', toolName: 'read_file', arguments: { path: 'notes/a very long file name.txt', encoding: 'utf8' } },
      { callId: 'call_fake_1_1', toolName: 'read_file', arguments: { path: 'b.txt' } },
    ]);
  });

  it('encodes system, user, assistant tool calls and several tool results exactly', async () => {
    fake.enqueue(fakeReply.text('ok'));
    await provider.complete(
      request(
        [
          { role: 'user', text: 'Read a and b' },
          {
            role: 'assistant',
            text: '',
            toolCalls: [
              { callId: 'call_1', toolName: 'read_file', arguments: { path: 'a' } },
              { callId: 'call_2', toolName: 'read_file', arguments: { path: 'b' } },
            ],
          },
          { role: 'tool', callId: 'call_1', toolName: 'read_file', content: 'A text', isError: false },
          { role: 'tool', callId: 'call_2', toolName: 'read_file', content: 'not_found: no such file b', isError: true },
          { role: 'assistant', text: 'a says A text.', toolCalls: [] },
          { role: 'user', text: 'Thanks' },
        ],
        { maxOutputTokens: 256 },
      ),
    );
    expect(fake.requests[0]?.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Read a and b' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
            { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"b"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'A text' },
        { role: 'tool', tool_call_id: 'call_2', content: 'not_found: no such file b' },
        { role: 'assistant', content: 'a says A text.' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: TOOLS.tools,
      max_tokens: 256,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('F5 a later request of the conversation reuses the JSON of the messages it already sent; the body is still exactly buildBody', async () => {
    fake.enqueue(fakeReply.text('one'), fakeReply.text('two'));
    // Text that would break a naive splice: replacement patterns, the placeholder's look, line separators.
    const first: ChatMessage = { role: 'user', text: 'Price: $& and $1, "\u0000oneclaw-messages\u0000", a\u2028b, café 😀' };
    const reply: ChatMessage = { role: 'assistant', text: 'Noted.', toolCalls: [] };
    await provider.complete(request([first]));
    // A whole text equal to the placeholder the messages are spliced at.
    const later = request([first, reply, { role: 'user', text: '\u0000oneclaw-messages\u0000' }]);
    await provider.complete(later);
    expect(fake.requests[1]?.body).toEqual(provider.buildBody(later));
    expect((fake.requests[1]?.body as { messages: unknown[] }).messages[1]).toEqual({ role: 'user', content: first.text });

    // The JSON of a message is taken from the first request that sent it: a message object is
    // never changed in the server (recorded messages are immutable), so this shows the reuse.
    (first as { text: string }).text = 'changed after it was sent';
    fake.enqueue(fakeReply.text('three'));
    await provider.complete(later);
    expect((fake.requests[2]?.body as { messages: unknown[] }).messages[1]).toEqual({
      role: 'user',
      content: 'Price: $& and $1, "\u0000oneclaw-messages\u0000", a\u2028b, café 😀',
    });
  });

  it('F5 a request that does not go on from the last one, a caller reusing its array, a model named like a placeholder: the body is still exactly buildBody', async () => {
    const a: ChatMessage = { role: 'user', text: 'first' };
    const b: ChatMessage = { role: 'assistant', text: 'second', toolCalls: [] };
    const c: ChatMessage = { role: 'user', text: 'third' };
    const messages = [a, b, c];
    const bodies: unknown[] = [];
    const send = async (req: ModelRequest) => {
      fake.enqueue(fakeReply.text('ok'));
      await provider.complete(req);
      expect(fake.requests.at(-1)?.body).toEqual(provider.buildBody(req));
      bodies.push(fake.requests.at(-1)?.body);
    };
    await send(request(messages));
    await send(request([a, c])); // shares only its first message with the last
    await send(request([a])); // shorter than the last
    messages[1] = { role: 'assistant', text: 'replaced in the same array', toolCalls: [] };
    await send(request(messages));
    messages.push({ role: 'user', text: 'pushed onto the same array' });
    await send(request(messages));
    expect((bodies.at(-1) as { messages: { content: string }[] }).messages.map((m) => m.content)).toEqual([
      'You are terse.',
      'first',
      'replaced in the same array',
      'third',
      'pushed onto the same array',
    ]);
    for (const model of ['\u0000oneclaw-messages\u0000', '\u0000oneclaw-tools\u0000']) await send(request(messages, { model }));
  });

  it('F5 the tool list JSON is kept by the list: the same list object sends the JSON of its first request, another list its own', async () => {
    const tools = {
      provider: 'openai' as const,
      tools: [{ type: 'function' as const, function: { name: 'a_tool', description: 'first', parameters: { type: 'object', properties: {} } } }],
    };
    fake.enqueue(fakeReply.text('one'), fakeReply.text('two'), fakeReply.text('three'));
    await provider.complete(request(HELLO, { tools }));
    // Tool lists are never changed in place (the registry builds a new one when the tool set changes): this shows the reuse.
    (tools.tools[0] as { function: { description: string } }).function.description = 'changed in place';
    await provider.complete(request(HELLO, { tools }));
    const other = {
      provider: 'openai' as const,
      tools: [{ type: 'function' as const, function: { name: 'b_tool', description: 'other', parameters: { type: 'object', properties: {} } } }],
    };
    await provider.complete(request(HELLO, { tools: other }));
    const sent = fake.requests.map((r) => (r.body as { tools: { function: { description: string } }[] }).tools[0]?.function.description);
    expect(sent).toEqual(['first', 'first', 'other']);
  });

  it('omits the tools field when there are no tools and sends no auth header without a key', async () => {
    const open = await startFakeModelServer('openai', { replies: [fakeReply.text('hi')] });
    try {
      const keyless = new OpenAiCompatibleProvider({ baseUrl: open.url, ...FAST });
      await keyless.complete(request(HELLO, { tools: { provider: 'openai', tools: [] } }));
      const sent = open.requests[0];
      expect(sent?.headers.authorization).toBeUndefined();
      expect(sent?.body).not.toHaveProperty('tools');
    } finally {
      await open.close();
    }
  });

  it('maps 401 to provider_auth_failed with a hint, without the key even when the server echoes it', async () => {
    fake.enqueue(fakeReply.error(401, { message: `Incorrect API key provided: ${KEY}.` }));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_auth_failed');
    expect(error.message).toContain('Check OPENAI_API_KEY');
    expect(error.message).toContain('Incorrect API key provided');
    expect(fake.requests).toHaveLength(1);
  });

  it('answers a wrong key with provider_auth_failed (the fake checks the Bearer header)', async () => {
    const wrong = new OpenAiCompatibleProvider({ apiKey: 'sk-wrong', baseUrl: fake.url, ...FAST });
    const error = await captureRejection(wrong.complete(request(HELLO)));
    expect((error as ProviderError).code).toBe('provider_auth_failed');
  });

  it('retries a 429 that gives retry-after, then succeeds', async () => {
    fake.enqueue(fakeReply.rateLimited(1), fakeReply.text('after the wait'));
    const reply = await provider.complete(request(HELLO));
    expect(reply.text).toBe('after the wait');
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up on a 429 that never ends after maxRetries with provider_rate_limited and the retry-after', async () => {
    fake.enqueue(fakeReply.rateLimited(7), fakeReply.rateLimited(7), fakeReply.rateLimited(7), fakeReply.text('never reached'));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_rate_limited');
    expect(error.message).toContain('wait and retry');
    expect(error.details).toMatchObject({ status: 429, retryAfterMs: 7000, attempts: 3 });
    expect(fake.requests).toHaveLength(3);
    expect(fake.pendingReplies).toBe(1);
  });

  it('retries 500 and then fails with provider_unavailable', async () => {
    fake.enqueue(fakeReply.error(500), fakeReply.error(502), fakeReply.error(503));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_unavailable');
    expect(error.details).toMatchObject({ status: 503, attempts: 3 });
    expect(fake.requests).toHaveLength(3);
  });

  it('maps another 4xx to provider_bad_request with the provider message, without retrying', async () => {
    fake.enqueue(fakeReply.error(400, { message: 'The model `gpt-nope` does not exist' }));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_bad_request');
    expect(error.message).toContain('The model `gpt-nope` does not exist');
    expect(fake.requests).toHaveLength(1);
  });

  it('fails a malformed stream with provider_bad_response, without retrying', async () => {
    fake.enqueue(fakeReply.malformed(), fakeReply.text('not used'));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_bad_response');
    expect(fake.requests).toHaveLength(1);
  });

  it('fails a stream that ends before finish_reason with provider_bad_response', async () => {
    fake.enqueue({ text: 'cut short', truncated: true });
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_bad_response');
  });

  it('ends a hanging stream with provider_cancelled when the signal aborts mid-stream', async () => {
    fake.enqueue(fakeReply.hang('partial answer'));
    const controller = new AbortController();
    const deltas: string[] = [];
    const error = await providerError(
      provider.complete(request(HELLO, { signal: controller.signal }), {
        onTextDelta: (t) => {
          deltas.push(t);
          controller.abort();
        },
      }),
    );
    expect(error.code).toBe('provider_cancelled');
    expect(deltas[0]).toBe('partial ');
    expect(fake.requests).toHaveLength(1);
  });

  it('reports provider_timeout when the server goes silent', async () => {
    fake.enqueue(fakeReply.hang());
    // Long enough for the fake to read the whole request on a loaded machine (it records a request
    // once its body is in; a client that gives up mid-send leaves nothing to record).
    const slow = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: fake.url, ...FAST, timeoutMs: 1000 });
    const error = await providerError(slow.complete(request(HELLO)));
    expect(error.code).toBe('provider_timeout');
    // Not retried: one request reached the server, which never answered.
    expect(fake.requests).toHaveLength(1);
  });

  it('fails loudly when the fake script ran out', async () => {
    const error = await providerError(new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: fake.url, ...FAST, maxRetries: 0 }).complete(request(HELLO)));
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toContain('script ran out');
  });

  describe('S6 reasoning: the OpenAI-compatible request asks for a reasoning effort when the model is set to reason', () => {
    const sentBody = (n = 0): Record<string, unknown> => fake.requests[n]?.body as Record<string, unknown>;

    it.each(['low', 'medium', 'high'] as const)('S6 reasoning %s sends reasoning_effort with that effort', async (effort) => {
      fake.enqueue(fakeReply.text('ok'));
      const req = request(HELLO, { reasoning: effort, maxOutputTokens: 64 });
      await provider.complete(req);
      expect(sentBody().reasoning_effort).toBe(effort);
      // Only the field is added: the token cap stays what the request set.
      expect(sentBody().max_tokens).toBe(64);
      expect(sentBody()).toEqual(provider.buildBody(req));
    });

    it('S6 reasoning absent: no reasoning_effort, and the body is byte for byte what it was before the setting existed', async () => {
      fake.enqueue(fakeReply.text('ok'));
      const plain = request(HELLO, { maxOutputTokens: 64 });
      const json = provider.bodyJson(plain);
      expect(json).toBe(
        '{"model":"gpt-test","messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"Hello"}],' +
          `"tools":${JSON.stringify(TOOLS.tools)},"max_tokens":64,"stream":true,"stream_options":{"include_usage":true}}`,
      );
      await provider.complete(plain);
      expect(sentBody()).not.toHaveProperty('reasoning_effort');
    });

    it('S6 reasoning: the reasoning a model streams when asked comes back as reasoning, apart from the answer', async () => {
      fake.enqueue({ thinking: ['Short ', 'thought.'], text: 'Done.' });
      const reasoning: string[] = [];
      const reply = await provider.complete(request(HELLO, { reasoning: 'high' }), { onReasoningDelta: (t) => reasoning.push(t) });
      expect(sentBody().reasoning_effort).toBe('high');
      expect(reasoning).toEqual(['Short ', 'thought.']);
      expect(reply).toMatchObject({ text: 'Done.', reasoning: 'Short thought.' });
    });
  });
});

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { expectProviderError } from '../testing/expect-provider-error';
import type { ToolPayload } from '@oneclaw/tool-registry';
import { captureRejection } from '../testing/fake-model/capture-rejection';
import { fakeReply } from '../testing/fake-model/fake-reply';
import { startFakeModelServer, type FakeModelServer } from '../testing/fake-model-server';
import { AnthropicProvider } from './anthropic-provider';
import type { ChatMessage, ModelRequest, ProviderMetadata } from '../model-provider';
import { ProviderError } from '../shared/provider-error';
import { THINKING_BUDGET_TOKENS } from '../shared/thinking-budget';

const KEY = 'sk-ant-test-SECRET-0123456789';
const FAST = { maxRetries: 2, retryDelayCapMs: 1, retryBaseDelayMs: 1 };

const TOOLS: ToolPayload = {
  provider: 'anthropic',
  tools: [{ name: 'read_file', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
};

/** A model that takes a thinking budget (anthropic-thinking-mode.ts); the adaptive ones are named where they are meant. */
function request(messages: readonly ChatMessage[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'claude-sonnet-4-5', system: 'You are terse.', messages, tools: TOOLS, ...extra };
}

const HELLO: ChatMessage[] = [{ role: 'user', text: 'Hello' }];

const providerError = (promise: Promise<unknown>): Promise<ProviderError> => expectProviderError(promise, KEY);

describe('S2 Anthropic provider against a loopback fake Anthropic server', () => {
  let fake: FakeModelServer;
  let provider: AnthropicProvider;

  beforeEach(async () => {
    fake = await startFakeModelServer('anthropic', { apiKey: KEY });
    provider = new AnthropicProvider({ apiKey: KEY, baseUrl: fake.url, ...FAST });
  });
  afterEach(() => fake.close());

  it('streams text deltas in order and returns the whole reply with usage', async () => {
    fake.enqueue(fakeReply.text(['Hel', 'lo, ', 'world', '!'], { inputTokens: 30, outputTokens: 5 }));
    const deltas: string[] = [];
    const reply = await provider.complete(request(HELLO), { onTextDelta: (t) => deltas.push(t) });
    expect(deltas).toEqual(['Hel', 'lo, ', 'world', '!']);
    expect(reply).toEqual({ text: 'Hello, world!', toolCalls: [], usage: { inputTokens: 30, outputTokens: 5 }, stopReason: 'end_turn' });
    const sent = fake.requests[0];
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe(KEY);
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('accumulates tool_use input that arrives as several input_json_delta pieces', async () => {
    fake.enqueue({
      text: 'Reading.',
      toolCalls: [
        { name: 'read_file', arguments: { path: 'notes/a very long file name.txt', lines: [1, 2, 3] } },
        { name: 'read_file', arguments: {} },
      ],
    });
    const reply = await provider.complete(request(HELLO));
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.text).toBe('Reading.');
    expect(reply.toolCalls).toEqual([
      { callId: 'toolu_fake_1_0', toolName: 'read_file', arguments: { path: 'notes/a very long file name.txt', lines: [1, 2, 3] } },
      { callId: 'toolu_fake_1_1', toolName: 'read_file', arguments: {} },
    ]);
    expect(reply.providerMetadata).toBeUndefined();
  });

  it('returns thinking blocks with their signature as provider metadata', async () => {
    fake.enqueue({ thinking: 'The user wants a file.', toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] });
    const deltas: string[] = [];
    const reply = await provider.complete(request(HELLO), { onTextDelta: (t) => deltas.push(t) });
    // Thinking is not answer text.
    expect(deltas).toEqual([]);
    expect(reply.providerMetadata).toEqual({
      provider: 'anthropic',
      data: { blocks: [{ type: 'thinking', thinking: 'The user wants a file.', signature: 'fake-thinking-signature-1' }] },
    });
  });

  it('S6 streams thinking_delta pieces as reasoning deltas and returns the thinking as reasoning text beside the signed blocks', async () => {
    fake.enqueue({ thinking: ['Let me ', 'think.'], text: 'Answer.' });
    const reasoning: string[] = [];
    const text: string[] = [];
    const reply = await provider.complete(request(HELLO), { onReasoningDelta: (t) => reasoning.push(t), onTextDelta: (t) => text.push(t) });
    expect(reasoning).toEqual(['Let me ', 'think.']);
    expect(text).toEqual(['Answer.']);
    expect(reply).toMatchObject({ text: 'Answer.', reasoning: 'Let me think.' });
    expect(reply.providerMetadata).toEqual({ provider: 'anthropic', data: { blocks: [{ type: 'thinking', thinking: 'Let me think.', signature: 'fake-thinking-signature-1' }] } });
  });

  it('encodes the history exactly: thinking echoed, tool results and the next user text merged into one user message', async () => {
    fake.enqueue(fakeReply.text('ok'));
    await provider.complete(
      request([
        { role: 'user', text: 'Read a and b' },
        {
          role: 'assistant',
          text: 'Reading both.',
          toolCalls: [
            { callId: 'toolu_1', toolName: 'read_file', arguments: { path: 'a' } },
            { callId: 'toolu_2', toolName: 'read_file', arguments: { path: 'b' } },
          ],
          providerMetadata: {
            provider: 'anthropic',
            data: {
              blocks: [
                { type: 'thinking', thinking: 'Need both files.', signature: 'sig-abc' },
                { type: 'redacted_thinking', data: 'opaque-blob' },
              ],
            },
          },
        },
        { role: 'tool', callId: 'toolu_1', toolName: 'read_file', content: 'A text', isError: false },
        { role: 'tool', callId: 'toolu_2', toolName: 'read_file', content: 'not_found: no such file b', isError: true },
        { role: 'user', text: 'Also, be brief.' },
        // State from another provider is never sent to Anthropic.
        { role: 'assistant', text: 'Done.', toolCalls: [], providerMetadata: { provider: 'gemini', data: { textSignature: 'x' } } },
        { role: 'user', text: 'Thanks' },
      ]),
    );
    expect(fake.requests[0]?.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Read a and b' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Need both files.', signature: 'sig-abc' },
            { type: 'redacted_thinking', data: 'opaque-blob' },
            { type: 'text', text: 'Reading both.' },
            { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } },
            { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'b' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A text', is_error: false },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'not_found: no such file b', is_error: true },
            { type: 'text', text: 'Also, be brief.' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
      ],
      tools: TOOLS.tools,
      stream: true,
    });
  });

  it('never sends a whitespace-only text block (the API refuses it on every later request): a blank reply adds no block, or only its tool calls', async () => {
    fake.enqueue(fakeReply.text('ok'));
    await provider.complete(
      request([
        { role: 'user', text: 'Hi' },
        // A whitespace-only reply, recorded as it came: with nothing else the message is left out, and the user messages around it merge.
        { role: 'assistant', text: '  \n ', toolCalls: [] },
        { role: 'user', text: 'Read a' },
        { role: 'assistant', text: '\n\t', toolCalls: [{ callId: 'toolu_1', toolName: 'read_file', arguments: { path: 'a' } }] },
        { role: 'tool', callId: 'toolu_1', toolName: 'read_file', content: 'A text', isError: false },
        { role: 'assistant', text: ' ', toolCalls: [] },
        { role: 'user', text: 'Thanks' },
      ]),
    );
    expect(fake.requests[0]?.body).toMatchObject({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'text', text: 'Read a' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A text', is_error: false },
            { type: 'text', text: 'Thanks' },
          ],
        },
      ],
    });
  });

  it('sends each tool_use id once and well-formed (ids repeat across rounds, some servers send dots and colons); each tool_result takes its call’s id', async () => {
    fake.enqueue(fakeReply.text('ok'));
    const round = (callIds: readonly string[]): ChatMessage[] => [
      { role: 'assistant', text: '', toolCalls: callIds.map((callId) => ({ callId, toolName: 'read_file', arguments: {} })) },
      ...callIds.map((callId): ChatMessage => ({ role: 'tool', callId, toolName: 'read_file', content: `result of ${callId}`, isError: false })),
    ];
    await provider.complete(
      request([
        { role: 'user', text: 'Read things' },
        // An OpenAI-compatible server without ids (call_<n> every round), then Gemini's ids, then Kimi's through OpenRouter.
        ...round(['call_0', 'call_1']),
        ...round(['call_0']),
        ...round(['call_0_2', 'gemini-0-read_file']),
        ...round(['gemini-0-read_file', 'functions.read_file:0', 'functions_read_file_0']),
        { role: 'user', text: 'And?' },
      ]),
    );
    const sent = (fake.requests[0]?.body as { messages: { content: { type: string; id?: string; tool_use_id?: string }[] }[] }).messages;
    const pairs = sent.map((m) => m.content.map((b) => b.id ?? b.tool_use_id ?? b.type));
    expect(pairs).toEqual([
      ['text'],
      ['call_0', 'call_1'],
      ['call_0', 'call_1'],
      ['call_0_2'],
      ['call_0_2'],
      ['call_0_2_2', 'gemini-0-read_file'],
      ['call_0_2_2', 'gemini-0-read_file'],
      ['gemini-0-read_file_2', 'functions_read_file_0', 'functions_read_file_0_2'],
      ['gemini-0-read_file_2', 'functions_read_file_0', 'functions_read_file_0_2', 'text'],
    ]);
    // The results still say which call they answer.
    expect((sent[8]?.content[1] as { content?: string }).content).toBe('result of functions.read_file:0');
  });

  it('maps the ids the same way when the body is built from kept JSON, request after request', async () => {
    const history: ChatMessage[] = [{ role: 'user', text: 'Go' }];
    for (let n = 1; n <= 3; n++) {
      history.push(
        { role: 'assistant', text: '', toolCalls: [{ callId: 'call_0', toolName: 'read_file', arguments: {} }] },
        { role: 'tool', callId: 'call_0', toolName: 'read_file', content: `r${n}`, isError: false },
      );
      fake.enqueue(fakeReply.text('ok'));
      await provider.complete(request(history.slice()));
    }
    const ids = fake.requests.map((r) => (r.body as { messages: { content: { id?: string }[] }[] }).messages.flatMap((m) => m.content.flatMap((b) => (b.id ? [b.id] : []))));
    expect(ids).toEqual([['call_0'], ['call_0', 'call_0_2'], ['call_0', 'call_0_2', 'call_0_3']]);
  });

  it('uses maxOutputTokens and omits empty tools', async () => {
    fake.enqueue(fakeReply.text('ok'));
    await provider.complete(request(HELLO, { maxOutputTokens: 99, tools: { provider: 'anthropic', tools: [] } }));
    expect(fake.requests[0]?.body).toMatchObject({ max_tokens: 99 });
    expect(fake.requests[0]?.body).not.toHaveProperty('tools');
  });

  it('maps 401 to provider_auth_failed without the key even when the server echoes it', async () => {
    fake.enqueue(fakeReply.error(401, { message: `invalid x-api-key ${KEY}` }));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_auth_failed');
    expect(error.message).toContain('Check ANTHROPIC_API_KEY');
    expect(fake.requests).toHaveLength(1);
  });

  it('answers a wrong key with provider_auth_failed (the fake checks x-api-key)', async () => {
    const wrong = new AnthropicProvider({ apiKey: 'sk-ant-wrong', baseUrl: fake.url, ...FAST });
    const error = await captureRejection(wrong.complete(request(HELLO)));
    expect((error as ProviderError).code).toBe('provider_auth_failed');
  });

  it('retries a 429 that gives retry-after, then succeeds', async () => {
    fake.enqueue(fakeReply.rateLimited(1), fakeReply.text('after the wait'));
    const reply = await provider.complete(request(HELLO));
    expect(reply.text).toBe('after the wait');
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up on a 429 that never ends after maxRetries with provider_rate_limited', async () => {
    fake.enqueue(fakeReply.rateLimited(3), fakeReply.rateLimited(3), fakeReply.rateLimited(3), fakeReply.text('never reached'));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_rate_limited');
    expect(error.details).toMatchObject({ retryAfterMs: 3000, attempts: 3 });
    expect(fake.requests).toHaveLength(3);
  });

  it('retries 500 / 529 overloaded and then fails with provider_unavailable', async () => {
    fake.enqueue(fakeReply.error(500), fakeReply.error(529), fakeReply.error(529));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toContain('overloaded');
    expect(fake.requests).toHaveLength(3);
  });

  it('succeeds when a 500 is followed by a good reply', async () => {
    fake.enqueue(fakeReply.error(500), fakeReply.text('recovered'));
    expect((await provider.complete(request(HELLO))).text).toBe('recovered');
  });

  it('fails a malformed stream with provider_bad_response', async () => {
    fake.enqueue(fakeReply.malformed(), fakeReply.text('not used'));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_bad_response');
    expect(fake.requests).toHaveLength(1);
  });

  it('fails a stream that ends before message_stop with provider_bad_response', async () => {
    fake.enqueue({ text: 'cut short', truncated: true });
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_bad_response');
  });

  it('ends a hanging stream with provider_cancelled when the signal aborts mid-stream', async () => {
    fake.enqueue(fakeReply.hang('partial answer'));
    const controller = new AbortController();
    const error = await providerError(provider.complete(request(HELLO, { signal: controller.signal }), { onTextDelta: () => controller.abort() }));
    expect(error.code).toBe('provider_cancelled');
    expect(fake.requests).toHaveLength(1);
  });

  describe('S6 reasoning: the Anthropic request asks for thinking when the model is set to reason', () => {
    const sentBody = (n = 0): Record<string, unknown> => fake.requests[n]?.body as Record<string, unknown>;

    /** A reply that called a tool, as the agent loop hands it back, with the tool's result after it. */
    const toolRound = (providerMetadata?: ProviderMetadata): ChatMessage[] => [
      { role: 'user', text: 'Read a' },
      { role: 'assistant', text: '', toolCalls: [{ callId: 'toolu_1', toolName: 'read_file', arguments: { path: 'a' } }], ...(providerMetadata ? { providerMetadata } : {}) },
      { role: 'tool', callId: 'toolu_1', toolName: 'read_file', content: 'A text', isError: false },
    ];

    it.each([
      ['low', 1024],
      ['medium', 4096],
      ['high', 16384],
    ] as const)('S6 reasoning %s sends thinking {type: enabled, budget_tokens: %d} and raises max_tokens by the budget', async (effort, budget) => {
      fake.enqueue(fakeReply.text('ok'));
      await provider.complete(request(HELLO, { reasoning: effort }));
      expect(sentBody().thinking).toEqual({ type: 'enabled', budget_tokens: budget });
      // The answer keeps the default 4 096 tokens of room beside the thinking.
      expect(sentBody().max_tokens).toBe(budget + 4096);
    });

    it.each(['low', 'medium', 'high'] as const)(
      'S6 reasoning %s on a Claude 4.6 or later model sends adaptive thinking with output_config.effort (no budget_tokens, which those models refuse)',
      async (effort) => {
        fake.enqueue(fakeReply.text('ok'));
        await provider.complete({ ...request(HELLO, { reasoning: effort }), model: 'claude-opus-4-7' });
        expect(sentBody().thinking).toEqual({ type: 'adaptive' });
        expect(sentBody().output_config).toEqual({ effort });
        expect(sentBody().max_tokens).toBe(THINKING_BUDGET_TOKENS[effort] + 4096);
      },
    );

    it('S6 reasoning: an adaptive model whose last assistant message calls tools without thinking gets neither thinking nor output_config', async () => {
      fake.enqueue(fakeReply.text('ok'));
      await provider.complete({ ...request(toolRound(), { reasoning: 'high' }), model: 'claude-sonnet-4-6' });
      expect(sentBody()).not.toHaveProperty('thinking');
      expect(sentBody()).not.toHaveProperty('output_config');
      expect(sentBody().max_tokens).toBe(4096);
    });

    it('S6 reasoning: max_tokens is the budget plus maxOutputTokens, or plus the provider default when the request sets none', async () => {
      fake.enqueue(fakeReply.text('ok'), fakeReply.text('ok'));
      await provider.complete(request(HELLO, { reasoning: 'medium', maxOutputTokens: 500 }));
      expect(sentBody(0)).toMatchObject({ max_tokens: 4096 + 500, thinking: { type: 'enabled', budget_tokens: 4096 } });
      const withDefault = new AnthropicProvider({ apiKey: KEY, baseUrl: fake.url, ...FAST, defaultMaxTokens: 2000 });
      await withDefault.complete(request(HELLO, { reasoning: 'low' }));
      expect(sentBody(1)).toMatchObject({ max_tokens: 1024 + 2000, thinking: { type: 'enabled', budget_tokens: 1024 } });
    });

    it('S6 reasoning absent: no thinking field and the body is byte for byte what it was before the setting existed', async () => {
      fake.enqueue(fakeReply.text('ok'));
      const plain = request(HELLO, { maxOutputTokens: 300 });
      const json = provider.bodyJson(plain);
      expect(json).toBe(
        '{"model":"claude-sonnet-4-5","max_tokens":300,"system":"You are terse.","messages":[{"role":"user","content":[{"type":"text","text":"Hello"}]}],' +
          `"tools":${JSON.stringify(TOOLS.tools)},"stream":true}`,
      );
      await provider.complete(plain);
      expect(sentBody()).not.toHaveProperty('thinking');
      expect(sentBody()).toEqual(JSON.parse(json));
    });

    it('S6 reasoning: the body sent with thinking is exactly buildBody (the kept-JSON path adds the same fields)', async () => {
      fake.enqueue(fakeReply.text('one'), fakeReply.text('two'));
      const first = request(HELLO, { reasoning: 'high' });
      await provider.complete(first);
      const later = request([...HELLO, { role: 'assistant', text: 'one', toolCalls: [] }, { role: 'user', text: 'More' }], { reasoning: 'high' });
      await provider.complete(later);
      expect(sentBody(0)).toEqual(provider.buildBody(first));
      expect(sentBody(1)).toEqual(provider.buildBody(later));
      expect(sentBody(1).thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
    });

    it('S6 reasoning: a final assistant message that calls tools without thinking blocks gets no thinking and the normal max_tokens', async () => {
      fake.enqueue(fakeReply.text('ok'), fakeReply.text('ok'));
      // The setting switched on in the middle of a turn: the tool-calling reply was made without thinking.
      await provider.complete(request(toolRound(), { reasoning: 'high' }));
      expect(sentBody(0)).not.toHaveProperty('thinking');
      expect(sentBody(0).max_tokens).toBe(4096);
      // The reply came from another provider: its state is not Anthropic's, so no thinking block goes either.
      await provider.complete(request(toolRound({ provider: 'gemini', data: { callSignatures: { toolu_1: 'sig' } } }), { reasoning: 'high' }));
      expect(sentBody(1)).not.toHaveProperty('thinking');
      expect(sentBody(1).max_tokens).toBe(4096);
    });

    it('S6 reasoning: with the signed thinking blocks echoed on the tool-calling message, the tool loop keeps thinking', async () => {
      fake.enqueue(fakeReply.text('ok'));
      await provider.complete(
        request(toolRound({ provider: 'anthropic', data: { blocks: [{ type: 'redacted_thinking', data: 'opaque-blob' }] } }), { reasoning: 'low', maxOutputTokens: 100 }),
      );
      expect(sentBody()).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 1124 });
      const messages = sentBody().messages as { role: string; content: { type: string }[] }[];
      expect(messages[1]?.content[0]).toEqual({ type: 'redacted_thinking', data: 'opaque-blob' });
    });

    it('S6 reasoning: a turn whose first reply thought keeps thinking through a longer tool loop, though later replies carry no thinking', async () => {
      const signed: ProviderMetadata = { provider: 'anthropic', data: { blocks: [{ type: 'thinking', thinking: 'Read a, then b.', signature: 'sig-1' }] } };
      const loop: ChatMessage[] = [
        ...toolRound(signed),
        { role: 'assistant', text: '', toolCalls: [{ callId: 'toolu_2', toolName: 'read_file', arguments: { path: 'b' } }] },
        { role: 'tool', callId: 'toolu_2', toolName: 'read_file', content: 'B text', isError: false },
      ];
      fake.enqueue(fakeReply.text('ok'));
      await provider.complete(request(loop, { reasoning: 'medium' }));
      expect(sentBody().thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    });

    it('S6 reasoning: a turn whose first reply did not think stays without thinking, even when a later reply of the loop did', async () => {
      const signed: ProviderMetadata = { provider: 'anthropic', data: { blocks: [{ type: 'thinking', thinking: 'Now b.', signature: 'sig-2' }] } };
      const loop: ChatMessage[] = [
        ...toolRound(),
        { role: 'assistant', text: '', toolCalls: [{ callId: 'toolu_2', toolName: 'read_file', arguments: { path: 'b' } }], providerMetadata: signed },
        { role: 'tool', callId: 'toolu_2', toolName: 'read_file', content: 'B text', isError: false },
      ];
      fake.enqueue(fakeReply.text('ok'));
      await provider.complete(request(loop, { reasoning: 'medium' }));
      expect(sentBody()).not.toHaveProperty('thinking');
      expect(sentBody().max_tokens).toBe(4096);
    });

    it('S6 reasoning: an earlier tool call without thinking does not matter once the last assistant message answered in text', async () => {
      fake.enqueue(fakeReply.text('ok'));
      await provider.complete(request([...toolRound(), { role: 'assistant', text: 'A says hi.', toolCalls: [] }, { role: 'user', text: 'Thanks' }], { reasoning: 'medium' }));
      expect(sentBody().thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    });

    it('S6 reasoning: consecutive assistant messages merge into one; the first of them decides whether it starts with thinking', async () => {
      fake.enqueue(fakeReply.text('ok'), fakeReply.text('ok'));
      const thinking = { provider: 'anthropic' as const, data: { blocks: [{ type: 'thinking', thinking: 'Plan.', signature: 'sig-1' }] } };
      const call = { callId: 'toolu_9', toolName: 'read_file', arguments: { path: 'b' } };
      // Thinking first, the tool call in a later message of the same merged one: it starts with thinking.
      await provider.complete(
        request(
          [
            { role: 'user', text: 'Go' },
            { role: 'assistant', text: 'Looking.', toolCalls: [], providerMetadata: thinking },
            { role: 'assistant', text: '', toolCalls: [call] },
          ],
          {
            reasoning: 'low',
          },
        ),
      );
      expect(sentBody(0)).toHaveProperty('thinking');
      // Text first, thinking only on the later message: the merged message starts with text.
      await provider.complete(
        request(
          [
            { role: 'user', text: 'Go' },
            { role: 'assistant', text: 'Looking.', toolCalls: [] },
            { role: 'assistant', text: '', toolCalls: [call], providerMetadata: thinking },
          ],
          {
            reasoning: 'low',
          },
        ),
      );
      expect(sentBody(1)).not.toHaveProperty('thinking');
    });

    it('S6 reasoning: a thinking reply that calls a tool comes back as reasoning, and its blocks let the next request of the loop think', async () => {
      fake.enqueue({ thinking: ['Need ', 'file a.'], toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] }, fakeReply.text('A says hi.'));
      const reasoning: string[] = [];
      const first = await provider.complete(request(HELLO, { reasoning: 'high' }), { onReasoningDelta: (t) => reasoning.push(t) });
      expect(reasoning).toEqual(['Need ', 'file a.']);
      expect(first.reasoning).toBe('Need file a.');
      const [call] = first.toolCalls;
      if (!call || !first.providerMetadata) throw new Error('expected a tool call with thinking blocks');
      await provider.complete(
        request(
          [
            ...HELLO,
            { role: 'assistant', text: first.text, toolCalls: first.toolCalls, providerMetadata: first.providerMetadata },
            { role: 'tool', callId: call.callId, toolName: call.toolName, content: 'hi', isError: false },
          ],
          { reasoning: 'high' },
        ),
      );
      expect(sentBody(1).thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
      const messages = sentBody(1).messages as { role: string; content: unknown[] }[];
      expect(messages[1]?.content[0]).toEqual({ type: 'thinking', thinking: 'Need file a.', signature: 'fake-thinking-signature-1' });
    });
  });
});

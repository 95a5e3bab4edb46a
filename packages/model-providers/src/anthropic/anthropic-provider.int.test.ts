import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { expectProviderError } from '../testing/expect-provider-error';
import type { ToolPayload } from '@oneclaw/tool-registry';
import { captureRejection } from '../testing/fake-model/capture-rejection';
import { fakeReply } from '../testing/fake-model/fake-reply';
import { startFakeModelServer, type FakeModelServer } from '../testing/fake-model-server';
import { AnthropicProvider } from './anthropic-provider';
import type { ChatMessage, ModelRequest } from '../model-provider';
import { ProviderError } from '../shared/provider-error';

const KEY = 'sk-ant-test-SECRET-0123456789';
const FAST = { maxRetries: 2, retryDelayCapMs: 1, retryBaseDelayMs: 1 };

const TOOLS: ToolPayload = {
  provider: 'anthropic',
  tools: [{ name: 'read_file', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
};

function request(messages: readonly ChatMessage[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'claude-test', system: 'You are terse.', messages, tools: TOOLS, ...extra };
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
      model: 'claude-test',
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
});

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { expectProviderError } from '../testing/expect-provider-error';
import type { ToolPayload } from '@oneclaw/tool-registry';
import { captureRejection } from '../testing/fake-model/capture-rejection';
import { fakeReply } from '../testing/fake-model/fake-reply';
import { startFakeModelServer, type FakeModelServer } from '../testing/fake-model-server';
import { GeminiProvider } from './gemini-provider';
import type { ChatMessage, ModelRequest } from '../model-provider';
import { ProviderError } from '../shared/provider-error';

const KEY = 'AIza-test-SECRET-0123456789';
const FAST = { maxRetries: 2, retryDelayCapMs: 1, retryBaseDelayMs: 1 };

const TOOLS: ToolPayload = {
  provider: 'gemini',
  tools: [{ functionDeclarations: [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }] }],
};

function request(messages: readonly ChatMessage[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'gemini-test', system: 'You are terse.', messages, tools: TOOLS, ...extra };
}

const HELLO: ChatMessage[] = [{ role: 'user', text: 'Hello' }];

const providerError = (promise: Promise<unknown>): Promise<ProviderError> => expectProviderError(promise, KEY);

describe('S2 Gemini provider against a loopback fake Gemini server', () => {
  let fake: FakeModelServer;
  let provider: GeminiProvider;

  beforeEach(async () => {
    fake = await startFakeModelServer('gemini', { apiKey: KEY });
    provider = new GeminiProvider({ apiKey: KEY, baseUrl: fake.url, ...FAST });
  });
  afterEach(() => fake.close());

  it('streams text deltas in order and returns the whole reply with usage', async () => {
    fake.enqueue(fakeReply.text(['Hel', 'lo, ', 'world', '!'], { inputTokens: 40, outputTokens: 6 }));
    const deltas: string[] = [];
    const reply = await provider.complete(request(HELLO), { onTextDelta: (t) => deltas.push(t) });
    expect(deltas).toEqual(['Hel', 'lo, ', 'world', '!']);
    expect(reply).toEqual({ text: 'Hello, world!', toolCalls: [], usage: { inputTokens: 40, outputTokens: 6 }, stopReason: 'STOP' });
    const sent = fake.requests[0];
    expect(sent?.path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(sent?.headers['x-goog-api-key']).toBe(KEY);
    // The key travels only in the header.
    expect(sent?.path).not.toContain(KEY);
  });

  it('returns function calls with generated ids unique within the reply, and the thought signature as metadata', async () => {
    fake.enqueue({
      thoughtSignature: 'sig-gemini-1',
      toolCalls: [
        { name: 'read_file', arguments: { path: 'a' } },
        { name: 'read_file', arguments: { path: 'b' } },
      ],
    });
    const reply = await provider.complete(request(HELLO));
    expect(reply.toolCalls).toEqual([
      { callId: 'gemini-0-read_file', toolName: 'read_file', arguments: { path: 'a' } },
      { callId: 'gemini-1-read_file', toolName: 'read_file', arguments: { path: 'b' } },
    ]);
    expect(reply.providerMetadata).toEqual({ provider: 'gemini', data: { callSignatures: { 'gemini-0-read_file': 'sig-gemini-1' } } });
  });

  it('S6 streams `thought: true` parts as reasoning deltas, never as answer text, and never sends them back', async () => {
    fake.enqueue({ thinking: ['Considering ', 'the question.'], text: 'Answer.' }, fakeReply.text('ok'));
    const reasoning: string[] = [];
    const text: string[] = [];
    const reply = await provider.complete(request(HELLO), { onReasoningDelta: (t) => reasoning.push(t), onTextDelta: (t) => text.push(t) });
    expect(reasoning).toEqual(['Considering ', 'the question.']);
    expect(text).toEqual(['Answer.']);
    expect(reply).toMatchObject({ text: 'Answer.', reasoning: 'Considering the question.' });
    await provider.complete(request([...HELLO, { role: 'assistant', text: reply.text, toolCalls: [] }, { role: 'user', text: 'More' }]));
    expect(JSON.stringify(fake.requests[1]?.body)).not.toContain('Considering');
  });

  it('keeps the signature of a text-only reply', async () => {
    fake.enqueue({ text: 'Plain answer.', thoughtSignature: 'sig-text' });
    const reply = await provider.complete(request(HELLO));
    expect(reply.providerMetadata).toEqual({ provider: 'gemini', data: { textSignature: 'sig-text' } });
  });

  it('encodes the history exactly: functionCall parts with the echoed signature, results in one user content', async () => {
    fake.enqueue({
      toolCalls: [
        { name: 'read_file', arguments: { path: 'a' } },
        { name: 'read_file', arguments: { path: 'b' } },
      ],
      thoughtSignature: 'sig-round-1',
    });
    const first = await provider.complete(request([{ role: 'user', text: 'Read a and b' }]));
    fake.enqueue(fakeReply.text('ok'));
    const [callA, callB] = first.toolCalls;
    if (!callA || !callB) throw new Error('expected two calls');
    await provider.complete(
      request(
        [
          { role: 'user', text: 'Read a and b' },
          { role: 'assistant', text: 'Reading both.', toolCalls: first.toolCalls, ...(first.providerMetadata ? { providerMetadata: first.providerMetadata } : {}) },
          { role: 'tool', callId: callA.callId, toolName: 'read_file', content: 'A text', isError: false },
          { role: 'tool', callId: callB.callId, toolName: 'read_file', content: 'not_found: no such file b', isError: true },
          { role: 'user', text: 'Thanks' },
        ],
        { maxOutputTokens: 512 },
      ),
    );
    expect(fake.requests[1]?.body).toEqual({
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Read a and b' }] },
        {
          role: 'model',
          parts: [
            { text: 'Reading both.' },
            { functionCall: { name: 'read_file', args: { path: 'a' } }, thoughtSignature: 'sig-round-1' },
            { functionCall: { name: 'read_file', args: { path: 'b' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'read_file', response: { result: 'A text' } } },
            { functionResponse: { name: 'read_file', response: { error: 'not_found: no such file b' } } },
          ],
        },
        { role: 'user', parts: [{ text: 'Thanks' }] },
      ],
      tools: TOOLS.tools,
      generationConfig: { maxOutputTokens: 512 },
    });
  });

  it('omits the tools field when there are no tools', async () => {
    fake.enqueue(fakeReply.text('ok'));
    await provider.complete(request(HELLO, { tools: { provider: 'gemini', tools: [] } }));
    expect(fake.requests[0]?.body).not.toHaveProperty('tools');
  });

  it('maps 401 to provider_auth_failed without the key even when the server echoes it', async () => {
    fake.enqueue(fakeReply.error(401, { message: `key ${KEY} is not valid` }));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_auth_failed');
    expect(error.message).toContain('Check GEMINI_API_KEY');
  });

  it("maps Gemini's own wrong-key answer (400 API_KEY_INVALID) to provider_auth_failed", async () => {
    fake.enqueue(
      fakeReply.error(400, {
        body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } },
      }),
    );
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_auth_failed');
  });

  it('answers a wrong key with provider_auth_failed (the fake checks x-goog-api-key)', async () => {
    const wrong = new GeminiProvider({ apiKey: 'AIza-wrong', baseUrl: fake.url, ...FAST });
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
    fake.enqueue(fakeReply.rateLimited(2), fakeReply.rateLimited(2), fakeReply.rateLimited(2), fakeReply.text('never reached'));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_rate_limited');
    expect(error.details).toMatchObject({ retryAfterMs: 2000, attempts: 3 });
    expect(fake.requests).toHaveLength(3);
  });

  it('retries 500 and then fails with provider_unavailable', async () => {
    fake.enqueue(fakeReply.error(500), fakeReply.error(503), fakeReply.error(500));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_unavailable');
    expect(fake.requests).toHaveLength(3);
  });

  it('fails a malformed stream with provider_bad_response', async () => {
    fake.enqueue(fakeReply.malformed(), fakeReply.text('not used'));
    const error = await providerError(provider.complete(request(HELLO)));
    expect(error.code).toBe('provider_bad_response');
    expect(fake.requests).toHaveLength(1);
  });

  it('fails a stream that ends before finishReason with provider_bad_response', async () => {
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

  describe('S6 reasoning: the Gemini request asks for thinking when the model is set to reason', () => {
    const sentBody = (n = 0): Record<string, unknown> => fake.requests[n]?.body as Record<string, unknown>;

    it.each([
      ['low', 1024],
      ['medium', 4096],
      ['high', 16384],
    ] as const)('S6 reasoning %s sends generationConfig.thinkingConfig {includeThoughts: true, thinkingBudget: %d}', async (effort, budget) => {
      fake.enqueue(fakeReply.text('ok'));
      await provider.complete(request(HELLO, { reasoning: effort }));
      expect(sentBody().generationConfig).toEqual({ thinkingConfig: { includeThoughts: true, thinkingBudget: budget } });
    });

    it('S6 reasoning: thinkingConfig joins the maxOutputTokens already sent in generationConfig', async () => {
      fake.enqueue(fakeReply.text('ok'));
      const req = request(HELLO, { reasoning: 'medium', maxOutputTokens: 512 });
      await provider.complete(req);
      expect(sentBody().generationConfig).toEqual({ maxOutputTokens: 512, thinkingConfig: { includeThoughts: true, thinkingBudget: 4096 } });
      expect(sentBody()).toEqual(provider.buildBody(req));
    });

    it('S6 reasoning absent: no thinkingConfig, and the body is byte for byte what it was before the setting existed', async () => {
      fake.enqueue(fakeReply.text('ok'), fakeReply.text('ok'));
      const head = '{"systemInstruction":{"parts":[{"text":"You are terse."}]},"contents":[{"role":"user","parts":[{"text":"Hello"}]}],' + `"tools":${JSON.stringify(TOOLS.tools)}`;
      const bare = request(HELLO);
      expect(provider.bodyJson(bare)).toBe(`${head}}`);
      await provider.complete(bare);
      expect(sentBody(0)).not.toHaveProperty('generationConfig');
      const capped = request(HELLO, { maxOutputTokens: 256 });
      expect(provider.bodyJson(capped)).toBe(`${head},"generationConfig":{"maxOutputTokens":256}}`);
      await provider.complete(capped);
      expect(sentBody(1).generationConfig).toEqual({ maxOutputTokens: 256 });
    });

    it('S6 reasoning: the thought summaries the request asked for come back as reasoning, never as answer text', async () => {
      fake.enqueue({ thinking: ['Weighing ', 'it.'], text: 'Answer.' });
      const reasoning: string[] = [];
      const text: string[] = [];
      const reply = await provider.complete(request(HELLO, { reasoning: 'low' }), { onReasoningDelta: (t) => reasoning.push(t), onTextDelta: (t) => text.push(t) });
      expect(sentBody().generationConfig).toEqual({ thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } });
      expect(reasoning).toEqual(['Weighing ', 'it.']);
      expect(text).toEqual(['Answer.']);
      expect(reply).toMatchObject({ text: 'Answer.', reasoning: 'Weighing it.' });
    });
  });
});

import { describe, expect, it } from '@jest/globals';
import { errorFromHttpStatus, errorFromStreamError, extractProviderMessage, parseRetryAfterMs } from './http-failure';
import { redactSecret } from './provider-error';

describe('S2 provider HTTP failure mapping', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('parses retry-after as seconds, as an HTTP date, and prefers retry-after-ms', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }), now)).toBe(10_000);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '9', 'retry-after-ms': '250' }), now)).toBe(250);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('reads the reason from each provider error shape', () => {
    expect(extractProviderMessage('{"error":{"message":"bad model","type":"invalid_request_error"}}')).toBe('invalid_request_error: bad model');
    expect(extractProviderMessage('[{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}]')).toBe('RESOURCE_EXHAUSTED: quota');
    expect(extractProviderMessage('{"error":"plain"}')).toBe('plain');
    expect(extractProviderMessage('<html>Bad Gateway</html>')).toBe('<html>Bad Gateway</html>');
  });

  it('maps statuses to stable codes', () => {
    const code = (status: number) => errorFromHttpStatus({ provider: 'openai', status, bodyText: '', headers: new Headers() }).code;
    expect([401, 403, 429, 500, 503, 529, 400, 404, 422].map(code)).toEqual([
      'provider_auth_failed',
      'provider_auth_failed',
      'provider_rate_limited',
      'provider_unavailable',
      'provider_unavailable',
      'provider_unavailable',
      'provider_bad_request',
      'provider_bad_request',
      'provider_bad_request',
    ]);
  });

  it('removes the key from messages and details', () => {
    const error = errorFromHttpStatus({ provider: 'anthropic', status: 400, bodyText: '{"error":{"message":"key sk-1 is odd"}}', headers: new Headers(), secret: 'sk-1' });
    expect(error.message).toContain('key [redacted] is odd');
    expect(JSON.stringify(error.details)).not.toContain('sk-1');
    expect(redactSecret('a sk-1 b sk-1', 'sk-1')).toBe('a [redacted] b [redacted]');
  });

  describe('a prompt longer than the context window is provider_context_too_long, with the numbers the provider named', () => {
    const classify = (provider: 'openai' | 'anthropic' | 'gemini', body: unknown) =>
      errorFromHttpStatus({ provider, status: 400, bodyText: typeof body === 'string' ? body : JSON.stringify(body), headers: new Headers() });

    it('Anthropic: 400 invalid_request_error "prompt is too long: N tokens > M maximum"', () => {
      const error = classify('anthropic', { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } });
      expect(error.code).toBe('provider_context_too_long');
      expect(error.details).toMatchObject({ limitTokens: 200_000, promptTokens: 208_310, status: 400 });
      expect(error.message).toContain('208310 tokens > 200000 maximum');
      expect(error.message).toContain('/compact');
    });

    it('OpenAI: 400 context_length_exceeded, in the classic and the newer wording', () => {
      const classic = classify('openai', {
        error: {
          message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      });
      expect(classic.details).toMatchObject({ limitTokens: 128_000, promptTokens: 130_532 });
      const newer = classify('openai', {
        error: {
          message: 'Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 300,001 tokens. Please reduce the length of the messages.',
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      });
      expect(newer.details).toMatchObject({ limitTokens: 272_000, promptTokens: 300_001 });
      const bare = classify('openai', { error: { message: 'Too long.', type: 'invalid_request_error', code: 'context_length_exceeded' } });
      expect(bare.code).toBe('provider_context_too_long');
      expect(bare.details.limitTokens).toBeUndefined();
    });

    it('OpenAI-compatible servers: vLLM wording and llama.cpp exceed_context_size_error', () => {
      const vllm = classify('openai', {
        object: 'error',
        message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
        type: 'BadRequestError',
        code: 400,
      });
      expect(vllm.details).toMatchObject({ limitTokens: 4096, promptTokens: 5000 });
      const llama = classify('openai', {
        error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 9000, n_ctx: 8192 },
      });
      expect(llama.details).toMatchObject({ limitTokens: 8192, promptTokens: 9000 });
    });

    it('Gemini: 400 INVALID_ARGUMENT "The input token count (N) exceeds the maximum number of tokens allowed (M)"', () => {
      const error = classify('gemini', {
        error: { code: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' },
      });
      expect(error.code).toBe('provider_context_too_long');
      expect(error.details).toMatchObject({ limitTokens: 1_048_576, promptTokens: 1_200_000 });
    });

    it('other 400s stay provider_bad_request, and an error inside a stream is classified alike', () => {
      expect(classify('anthropic', { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: 100000 > 64000, which is the maximum allowed' } }).code).toBe(
        'provider_bad_request',
      );
      expect(classify('openai', { error: { message: 'The model `gpt-9` does not exist', type: 'invalid_request_error', code: 'model_not_found' } }).code).toBe(
        'provider_bad_request',
      );
      const streamed = errorFromStreamError(
        'openai',
        { message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.", code: 'context_length_exceeded' },
        undefined,
      );
      expect(streamed.code).toBe('provider_context_too_long');
      expect(streamed.details).toMatchObject({ limitTokens: 8192, promptTokens: 9000 });
    });
  });
});

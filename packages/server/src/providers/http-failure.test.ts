import { describe, expect, it } from '@jest/globals';
import { errorFromHttpStatus, extractProviderMessage, parseRetryAfterMs } from './http-failure';
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
});

import { describe, expect, it } from '@jest/globals';
import { MIN_SECRET_LENGTH, REDACTED, SecretRedactor, isSensitiveKey } from './secret-redactor';

const KEY = 'sk-live-0123456789abcdef';

describe('SecretRedactor.redactText (SEC-03)', () => {
  it('SEC-03 scrubs a secret inside a URL query and an error message', () => {
    const r = new SecretRedactor([KEY]);
    expect(r.redactText(`GET https://api.example/v1?key=${KEY}&x=1`)).toBe(`GET https://api.example/v1?key=${REDACTED}&x=1`);
    expect(r.redactText(`401 from provider: invalid key ${KEY}.`)).toBe(`401 from provider: invalid key ${REDACTED}.`);
  });

  it('SEC-03 scrubs the URL-encoded, JSON-escaped and base64 forms', () => {
    const secret = 'p@ss w/rd+"quoted"';
    const r = new SecretRedactor([secret]);
    const forms = [
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
      encodeURIComponent(secret).replace(/%20/g, '+'),
      JSON.stringify(secret).slice(1, -1),
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('base64url'),
    ];
    for (const form of forms) {
      expect(r.redactText(`x=${form};`)).not.toContain(form);
    }
    expect(r.redactText(JSON.stringify({ msg: `failed: ${secret}` }))).toBe(JSON.stringify({ msg: `failed: ${REDACTED}` }));
  });

  it('SEC-03 treats regex metacharacters in secrets literally', () => {
    const r = new SecretRedactor(['a.b*c+d?(e)[f]{g}|h^$\\']);
    expect(r.redactText('axbbbcd')).toBe('axbbbcd');
    expect(r.redactText('see a.b*c+d?(e)[f]{g}|h^$\\ here')).toBe(`see ${REDACTED} here`);
  });

  it('SEC-03 redacts the whole of a secret that another secret is a prefix of', () => {
    const r = new SecretRedactor(['token-abc', 'token-abcdef-long']);
    expect(r.redactText('t=token-abcdef-long')).toBe(`t=${REDACTED}`);
  });

  it('SEC-03 handles many secrets added one by one', () => {
    const r = new SecretRedactor();
    const secrets = Array.from({ length: 2000 }, (_, i) => `secret-value-${i.toString().padStart(5, '0')}`);
    for (const s of secrets) r.add(s);
    expect(r.size).toBe(2000);
    const text = secrets.filter((_, i) => i % 97 === 0).join(' and ');
    const redacted = r.redactText(text);
    expect(redacted).not.toMatch(/secret-value-/);
    expect(redacted.split(REDACTED)).toHaveLength(secrets.filter((_, i) => i % 97 === 0).length + 1);
    // A secret added after the pattern was built is picked up too.
    r.add('late-arrival-secret');
    expect(r.redactText('x late-arrival-secret')).toBe(`x ${REDACTED}`);
  });

  it('SEC-03 ignores short values so common words are not scrubbed', () => {
    const r = new SecretRedactor(['abc', 'the', '12345', '', undefined, null]);
    expect(r.size).toBe(0);
    expect(r.redactText('the abc of 12345')).toBe('the abc of 12345');
    expect(r.add('x'.repeat(MIN_SECRET_LENGTH)).size).toBe(1);
  });

  it('forgets a removed secret in every form, and keeps the others', () => {
    const expired = 'ya29.expired-access-token';
    const r = new SecretRedactor([KEY, expired]);
    expect(r.redactText(`${expired} ${Buffer.from(expired).toString('base64url')}`)).toBe(`${REDACTED} ${REDACTED}`);
    expect(r.remove(expired).has(expired)).toBe(false);
    expect(r.size).toBe(1);
    expect(r.redactText(`${expired} ${Buffer.from(expired).toString('base64url')} ${KEY}`)).toBe(`${expired} ${Buffer.from(expired).toString('base64url')} ${REDACTED}`);
    expect(r.remove('never-added-value').size).toBe(1);
    expect(r.remove(KEY).redactText(KEY)).toBe(KEY);
  });

  it('leaves text without secrets untouched and reports containment', () => {
    const r = new SecretRedactor([KEY]);
    expect(r.redactText('nothing to see')).toBe('nothing to see');
    expect(r.containsSecret('nothing to see')).toBe(false);
    expect(r.containsSecret(`k=${KEY}`)).toBe(true);
    expect(r.containsSecret(`k=${KEY}`)).toBe(true); // the global regex's lastIndex does not leak between calls
  });
});

describe('SecretRedactor.redactValue (SEC-02/SEC-03)', () => {
  it('SEC-03 scrubs strings in nested objects and arrays without mutating the input', () => {
    const r = new SecretRedactor([KEY]);
    const input = { a: { b: [`url?k=${KEY}`, 42, true, null], c: 'plain' } };
    const output = r.redactValue(input);
    expect(output).toEqual({ a: { b: [`url?k=${REDACTED}`, 42, true, null], c: 'plain' } });
    expect(input.a.b[0]).toBe(`url?k=${KEY}`);
  });

  it('SEC-02 replaces values of sensitive keys, whatever their value', () => {
    const r = new SecretRedactor();
    const output = r.redactValue({
      headers: { Authorization: 'Bearer abc', 'x-api-key': 'k1', 'X-Goog-Api-Key': 'k2', accept: 'text/html' },
      apiKey: 'short',
      api_key: 'k3',
      token: { nested: 'x' },
      accessToken: 'a',
      refreshToken: 'r',
      password: 'pw',
      secret: 's',
      maxTokens: 4096,
      inputTokens: 12,
      missing: undefined,
    });
    expect(output).toEqual({
      headers: { Authorization: REDACTED, 'x-api-key': REDACTED, 'X-Goog-Api-Key': REDACTED, accept: 'text/html' },
      apiKey: REDACTED,
      api_key: REDACTED,
      token: REDACTED,
      accessToken: REDACTED,
      refreshToken: REDACTED,
      password: REDACTED,
      secret: REDACTED,
      maxTokens: 4096,
      inputTokens: 12,
      missing: undefined,
    });
    expect(isSensitiveKey('X-API-KEY')).toBe(true);
    expect(isSensitiveKey('tokens')).toBe(false);
  });

  it('SEC-02 hides every value under _env but keeps the names', () => {
    const r = new SecretRedactor();
    const output = r.redactValue({ tool: 'gmail', args: { q: 'x', _env: { TOKEN: 'abc', NESTED: { deep: 'v' } } } });
    expect(output).toEqual({ tool: 'gmail', args: { q: 'x', _env: { TOKEN: REDACTED, NESTED: REDACTED } } });
    expect(r.redactValue({ _env: 'whole-string' })).toEqual({ _env: REDACTED });
  });

  it('takes a secret with a lone surrogate (valid JSON, not encodable as a URI) and scrubs it, and its URL form', () => {
    const secret = 'abc-secret\ud800';
    const r = new SecretRedactor();
    expect(() => r.add(secret)).not.toThrow();
    expect(r.redactText(`value=${secret};`)).toBe(`value=${REDACTED};`);
    // URLSearchParams, like URL and fetch, percent-encodes the well-formed form (U+FFFD for the lone half).
    expect(r.redactText(new URLSearchParams({ v: secret }).toString())).toBe(`v=${REDACTED}`);
    expect(r.redactText(JSON.stringify({ v: secret }))).toBe(`{"v":"${REDACTED}"}`);
  });

  it('is safe on cycles and keeps their shape', () => {
    const r = new SecretRedactor([KEY]);
    const input: Record<string, unknown> = { name: KEY };
    input.self = input;
    const output = r.redactValue(input) as Record<string, unknown>;
    expect(output.name).toBe(REDACTED);
    expect(output.self).toBe(output);
  });

  it('SEC-03 copies errors with message, stack and cause scrubbed, keeping the prototype', () => {
    const r = new SecretRedactor([KEY]);
    const cause = new Error(`inner ${KEY}`);
    const error = new TypeError(`outer ${KEY}`, { cause });
    const output = r.redactValue({ err: error }).err;
    expect(output).toBeInstanceOf(TypeError);
    expect(output.message).toBe(`outer ${REDACTED}`);
    expect(output.stack).not.toContain(KEY);
    expect((output.cause as Error).message).toBe(`inner ${REDACTED}`);
    expect(error.message).toBe(`outer ${KEY}`);
  });

  it("does not let a __proto__ key change the copy's prototype", () => {
    const r = new SecretRedactor();
    const output = r.redactValue(JSON.parse('{"__proto__": {"polluted": true}}') as object) as Record<string, unknown>;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect((output as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

import { describe, expect, it } from '@jest/globals';
import { secretRedactor } from './secret-redactor';

describe('secretRedactor', () => {
  const redact = secretRedactor(['sk-live-0123456789', 'abcd', 'no']);

  it('replaces every secret of four characters or more, the longest first', () => {
    expect(redact('key sk-live-0123456789, abcd, no')).toBe('key [redacted], [redacted], no');
    expect(redact.reach).toBe('sk-live-0123456789'.length);
  });

  it('cut keeps max characters, redacted; a secret that spans the cut is left out whole', () => {
    const line = `${'x'.repeat(10)}sk-live-0123456789${'y'.repeat(10)}`;
    // Cutting first and redacting after would keep 'sk-live-01'.
    expect(redact.cut(line, 20)).toBe('x'.repeat(10));
    expect(redact.cut(line, 28)).toBe(`${'x'.repeat(10)}[redacted]`);
    expect(redact.cut(line, 10)).toBe('x'.repeat(10));
    expect(redact.cut(`abcd${line}`, 5)).toBe('[redacted]x');
  });

  it('matches a secret as JSON escapes it too (a PEM key in an object result); values under four characters are left alone', () => {
    const pem = '-----BEGIN KEY-----\nMIIBOgIBAAJBAK\n-----END KEY-----';
    const quoted = secretRedactor([pem, 'pa"ss\\word', 'abc']);
    expect(quoted(JSON.stringify({ key: pem, q: 'pa"ss\\word', short: 'abc' }))).toBe('{"key":"[redacted]","q":"[redacted]","short":"abc"}');
    expect(quoted(`raw ${pem}`)).toBe('raw [redacted]');
    expect(quoted.reach).toBe(JSON.stringify(pem).length - 2);
  });

  it('without secrets, cut only cuts', () => {
    const none = secretRedactor([]);
    expect(none('abc')).toBe('abc');
    expect(none.reach).toBe(0);
    expect(none.cut('abcdef', 3)).toBe('abc');
  });
});

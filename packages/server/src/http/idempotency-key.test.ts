import { describe, expect, it } from '@jest/globals';
import { OneClawError } from '@oneclaw/core';
import { idempotencyKeyOf, MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency-key';

describe('idempotencyKeyOf', () => {
  it('takes no header, an empty one or a blank one as no key', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
    expect(idempotencyKeyOf('')).toBeUndefined();
    expect(idempotencyKeyOf(' \t ')).toBeUndefined();
  });

  it('keeps a key without its surrounding whitespace', () => {
    expect(idempotencyKeyOf(' retry-1 ')).toBe('retry-1');
  });

  it('refuses a key over the limit with a typed error that names the header and the limit', () => {
    expect(idempotencyKeyOf('k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH))).toHaveLength(MAX_IDEMPOTENCY_KEY_LENGTH);
    let error: unknown;
    try {
      idempotencyKeyOf('k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OneClawError);
    expect(error).toMatchObject({ code: 'invalid_idempotency_key', details: { maxLength: MAX_IDEMPOTENCY_KEY_LENGTH } });
    expect((error as Error).message).toMatch(/Idempotency-Key.*at most 100/);
  });
});

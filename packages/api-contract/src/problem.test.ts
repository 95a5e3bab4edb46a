import { describe, expect, it } from '@jest/globals';
import { ERROR_STATUS } from './problem';

describe('ERROR_STATUS', () => {
  it('has stable snake_case codes, each answered with a client or server error status', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect({ code, ok: /^[a-z]+(_[a-z]+)*$/.test(code) }).toEqual({ code, ok: true });
      expect({ code, status, ok: status >= 400 && status <= 599 }).toEqual({ code, status, ok: true });
    }
  });
});

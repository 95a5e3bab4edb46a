import { describe, expect, it } from '@jest/globals';
import { OneClawError } from '@oneclaw/core';
import { bodyParserErrors } from './request-body-encoding';

// body-parser's refusals as typed errors; the HTTP classes themselves are API-21..23 in api.e2e.test.ts.
function translated(error: unknown, headers: Record<string, string> = {}): unknown {
  let passed: unknown;
  bodyParserErrors()(error, { headers, is: () => 'application/json' }, undefined, (e) => (passed = e));
  return passed;
}

describe('bodyParserErrors', () => {
  it.each(['request.aborted', 'request.size.invalid'])('a body cut short (%s) is 400 invalid_body, not a server fault', (type) => {
    const error = translated(Object.assign(new Error('request size did not match content length'), { type, status: 400 }));
    expect(error).toBeInstanceOf(OneClawError);
    expect((error as OneClawError).code).toBe('invalid_body');
    expect((error as OneClawError).message).toMatch(/Content-Length/);
  });

  it('an error it does not know passes through unchanged', () => {
    const unknown = Object.assign(new Error('something else'), { type: 'stream.not.readable', status: 500 });
    expect(translated(unknown)).toBe(unknown);
  });
});

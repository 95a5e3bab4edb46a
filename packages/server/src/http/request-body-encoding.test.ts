import { describe, expect, it } from '@jest/globals';
import { OneClawError } from '@oneclaw/core';
import { bodyParserErrors, requireJsonBody } from './request-body-encoding';

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

describe('requireJsonBody', () => {
  // `is` as Express answers it for a body that is not JSON; the JSON case is API-24 in api.e2e.test.ts.
  function passed(method: string, url: string, headers: Record<string, string>): unknown {
    let error: unknown = 'not called';
    requireJsonBody(['POST /api/attachments'])({ method, originalUrl: url, headers, is: () => false }, undefined, (e) => (error = e));
    return error;
  }
  const textBody = { 'content-type': 'text/plain', 'content-length': '5' };

  it('refuses a non-JSON body on an /api route with 415 unsupported_media_type naming the type', () => {
    expect(passed('POST', '/api/sessions?x=1', textBody)).toMatchObject({ code: 'unsupported_media_type', details: { contentType: 'text/plain' } });
    expect(passed('PUT', '/api/env-vars/A', { 'transfer-encoding': 'chunked' })).toMatchObject({ code: 'unsupported_media_type', details: { contentType: '' } });
    // A request target in absolute form, which Express routes by its path.
    expect(passed('POST', 'http://127.0.0.1:3000/api/sessions', textBody)).toMatchObject({ code: 'unsupported_media_type' });
    expect(passed('POST', 'HTTP://127.0.0.1:3000/API/Attachments', textBody)).toBeUndefined();
  });

  it('lets through bodiless requests, the raw-body routes (in any spelling Express routes) and non-/api paths', () => {
    expect(passed('POST', '/api/sessions', { 'content-type': 'text/plain', 'content-length': '0' })).toBeUndefined();
    expect(passed('POST', '/api/sessions/s/clear', {})).toBeUndefined();
    expect(passed('POST', '/api/attachments', textBody)).toBeUndefined();
    expect(passed('POST', '/API/Attachments/?x', textBody)).toBeUndefined();
    expect(passed('POST', '/', textBody)).toBeUndefined();
  });
});

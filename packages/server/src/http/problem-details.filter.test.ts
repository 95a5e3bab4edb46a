import { describe, expect, it } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import { OneClawError } from '@oneclaw/core';
import pino from 'pino';
import { SecretRedactor } from '../security/secret-redactor';
import { ProblemDetailsFilter } from './problem-details.filter';

/** Catches `error` as the filter does for a request, and gives back the problem+json it sent. */
function answerTo(error: unknown, secrets: string[]): Record<string, unknown> {
  let sent = '';
  const response = {
    headersSent: false,
    setHeader: () => undefined,
    end: () => undefined,
    status: () => ({ type: () => ({ send: (body: string) => (sent = body) }) }),
  };
  const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
  new ProblemDetailsFilter(pino({ level: 'silent' }), new SecretRedactor(secrets)).catch(error, host);
  return JSON.parse(sent) as Record<string, unknown>;
}

describe('ProblemDetailsFilter: secrets leave the answer, the stable code stays', () => {
  it('a known secret is taken out of the detail and the extension members, never out of code, type or title (clients branch on them)', () => {
    // A tool env var may hold any word of 6 characters or more, such as "session".
    const answer = answerTo(new OneClawError('session_not_found', "Session 'session-7' was not found.", { sessionId: 'session-7' }), ['session']);
    expect(answer).toEqual({
      type: 'about:blank',
      title: 'Session not found',
      status: 404,
      code: 'session_not_found',
      detail: "Session '[Redacted]-7' was not found.",
      sessionId: '[Redacted]-7',
    });
  });
});

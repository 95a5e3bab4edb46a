import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { ERROR_STATUS, type Problem } from '@oneclaw/api-contract';
import { OneClawError } from '@oneclaw/core';
import type { Logger } from '../logging/logger';
import { isSensitiveKey, REDACTED, type SecretRedactor } from '../security/secret-redactor';
import { ResourceNotFoundError } from './resource-not-found';

/** HTTP status for each domain error code (the contract's table); an unlisted code is a 500. */
const STATUS_BY_CODE: Readonly<Record<string, number>> = ERROR_STATUS;

/**
 * 5xx domain errors whose message is guidance for the user (what to configure), not internals.
 * Every other 5xx answer keeps its code but not its message or details: those can name files on
 * the server, hosts or SQLite/gRPC internals. The log has them (redacted).
 */
const USER_FACING_SERVER_ERRORS: ReadonlySet<string> = new Set([
  'provider_not_configured',
  // What the provider said (its key removed) and what to check: the user's own provider, not our internals.
  'provider_auth_failed',
  'provider_rate_limited',
  'provider_unavailable',
  'provider_bad_request',
  'provider_bad_response',
  'provider_timeout',
  'provider_cancelled',
  'provider_context_too_long',
]);

const GENERIC_DETAIL: Readonly<Record<string, string>> = {
  storage_unavailable: 'The event store cannot be used right now; the server log says why. Retry later (with the same Idempotency-Key, if you sent one).',
  storage_corrupt: 'The event store is damaged; the server log says why. It has to be restored from a backup before sessions can be used.',
  search_unavailable: 'The session search cannot be used right now; the server log says why. The list without a search still works; search again later.',
};

const INTERNAL_DETAIL = 'The server failed to handle this request; it has been logged.';

/** The part of Express's response this filter uses (keeps @types/express out of the build). */
interface ExpressLikeResponse {
  headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  status(code: number): { type(contentType: string): { send(body: string): unknown } };
  end(): unknown;
}

/**
 * Every error leaves as RFC 9457 problem+json with a stable `code`. Client errors (4xx) keep their
 * message (it says what to do); server faults (5xx) are logged and answered without internals.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  /**
   * `redactor` is the server's SecretRedactor (the one the logger and the turns use, which learns
   * keys set at run time): a provider's error can echo its key in a form the provider code does not
   * strip (base64, URL-encoded), and its reason is part of the answer (USER_FACING_SERVER_ERRORS).
   */
  constructor(
    private readonly logger: Logger,
    private readonly redactor: SecretRedactor,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<ExpressLikeResponse>();
    const problem = redactProblem(toProblem(exception), this.redactor);
    logServerFault(this.logger, exception, problem);
    if (response.headersSent) {
      response.end();
      return;
    }
    const challenge = (exception as { challenge?: unknown }).challenge;
    if (problem.status === 401) response.setHeader('WWW-Authenticate', typeof challenge === 'string' ? challenge : 'Bearer');
    const retryAfter = retryAfterOf(exception);
    if (problem.status === 503 && retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
    response.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
  }
}

/**
 * The problem with every known secret taken out of its values (`detail`, extension members), but
 * not out of `type`, `title`, `code` or the members' names: they are ours, and clients read them.
 * A value set as a tool env var can be any word of 6 characters or more ("session"), which would
 * otherwise turn `session_not_found` into `[Redacted]_not_found` and `sessionId` into `[Redacted]Id`.
 */
function redactProblem(problem: Problem, redactor: SecretRedactor): Problem {
  const { type, title, status, code, ...members } = problem;
  const redacted = Object.entries(members).map(([name, value]) => [name, isSensitiveKey(name) ? REDACTED : redactor.redactValue(value)]);
  return { ...(Object.fromEntries(redacted) as { detail: string }), type, title, status, code };
}

/**
 * Logs what a 5xx answer leaves out (the answer itself says only "it has been logged"), through
 * the redacting logger: a secret inside an error message never reaches the log (API-17).
 */
export function logServerFault(logger: Logger, exception: unknown, answered: Problem = toProblem(exception)): void {
  if (answered.status < 500) return;
  if (exception instanceof OneClawError && USER_FACING_SERVER_ERRORS.has(exception.code)) return;
  // An answer that says when to come back (CachePause) reports a known state, whose cause was
  // logged when it began: logging every such answer would repeat it for each search.
  if (retryAfterOf(exception) !== undefined) return;
  logger.error({ err: exception }, 'request failed');
}

/** Seconds a domain error says to wait before trying again (`details.retryAfterSeconds`), if any. */
function retryAfterOf(exception: unknown): number | undefined {
  const seconds = exception instanceof OneClawError ? exception.details.retryAfterSeconds : undefined;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? seconds : undefined;
}

export function toProblem(exception: unknown): Problem {
  if (exception instanceof OneClawError) {
    const status = exception instanceof ResourceNotFoundError ? exception.status : (STATUS_BY_CODE[exception.code] ?? 500);
    if (status >= 500 && !USER_FACING_SERVER_ERRORS.has(exception.code)) {
      return problem(status, exception.code, GENERIC_DETAIL[exception.code] ?? INTERNAL_DETAIL);
    }
    return { ...exception.details, ...problem(status, exception.code, exception.message) };
  }
  if (exception instanceof ThrottlerException) {
    return problem(429, 'rate_limited', 'Too many requests from this client. Wait for the number of seconds in Retry-After, then retry.');
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // Nest turns body-parser's JSON SyntaxError into a bare 400; its message is JSON.parse's.
    if (status === 400 && /JSON/.test(exception.message)) {
      return problem(400, 'invalid_json', 'The request body is not valid JSON. Send a JSON object with Content-Type: application/json.');
    }
    return status === 404 ? problem(404, 'not_found', 'No such route. See docs/api.md for the API.') : problem(status, `http_${status}`, exception.message);
  }
  return problem(500, 'internal_error', INTERNAL_DETAIL);
}

function problem(status: number, code: string, detail: string): Problem {
  return { type: 'about:blank', title: titleOf(code), status, code, detail };
}

function titleOf(code: string): string {
  return code.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { OneClawError } from '@oneclaw/core';
import type { Logger } from '../logging/logger';
import { ResourceNotFoundError } from './resource-not-found';

/** HTTP status for each domain error code; an unlisted code is a 500. */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  invalid_command: 400,
  invalid_event: 400,
  invalid_expected_revision: 400,
  event_not_serializable: 400,
  invalid_session_id: 400,
  session_not_found: 404,
  // Session management: a deleted session is gone (410); titles and searches are checked.
  session_archived: 410,
  title_empty: 400,
  title_too_long: 400,
  query_too_long: 400,
  group_not_found: 404,
  session_already_started: 409,
  stream_revision_conflict: 409,
  idempotency_conflict: 409,
  group_not_loaded: 409,
  unknown_tool_call: 409,
  tool_call_mismatch: 409,
  payload_too_large: 413,
  unsupported_charset: 415,
  unsupported_content_encoding: 415,
  storage_unavailable: 503,
  storage_corrupt: 503,
  invalid_body: 400,
  invalid_if_match: 400,
  agent_not_found: 400,
  unauthorized: 401,
  turn_in_progress: 409,
  duplicate_request: 409,
  precondition_failed: 412,
  rate_limited: 429,
  provider_not_configured: 503,
  validation_error: 400,
  provider_not_found: 404,
  read_only: 409,
  not_found: 404,
  // Configuration (settings screens, config routes).
  model_not_found: 404,
  tool_not_found: 404,
  provider_inactive: 409,
  cannot_disable: 409,
  api_key_missing: 409,
  unknown_key: 400,
  web_ui_not_built: 404,
  // A provider's own API failed while the server asked it something for the client (its model list).
  provider_auth_failed: 502,
  provider_rate_limited: 502,
  provider_unavailable: 502,
  provider_bad_request: 502,
  provider_bad_response: 502,
  provider_timeout: 504,
  provider_cancelled: 504,
  provider_context_too_long: 502,
  // Attachments (docs/api.md, "Attachments").
  attachment_type_unsupported: 415,
  attachment_type_mismatch: 415,
  attachment_too_large: 413,
  attachment_empty: 400,
  attachment_not_found: 400,
  invalid_attachment_hash: 400,
  // Retry and edit of the last turn (docs/events.md, "Retry and edit").
  nothing_to_retry: 409,
  nothing_to_edit: 409,
  not_last_user_message: 409,
  // SendMessage with neither text nor a file.
  message_empty: 400,
};

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
};

const INTERNAL_DETAIL = 'The server failed to handle this request; it has been logged.';

/** The part of Express's response this filter uses (keeps @types/express out of the build). */
interface ExpressLikeResponse {
  headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  status(code: number): { type(contentType: string): { send(body: string): unknown } };
  end(): unknown;
}

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly [extra: string]: unknown;
}

/**
 * Every error leaves as RFC 9457 problem+json with a stable `code`. Client errors (4xx) keep their
 * message (it says what to do); server faults (5xx) are logged and answered without internals.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<ExpressLikeResponse>();
    const problem = toProblem(exception);
    logServerFault(this.logger, exception, problem);
    if (response.headersSent) {
      response.end();
      return;
    }
    const challenge = (exception as { challenge?: unknown }).challenge;
    if (problem.status === 401) response.setHeader('WWW-Authenticate', typeof challenge === 'string' ? challenge : 'Bearer');
    response.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
  }
}

/**
 * Logs what a 5xx answer leaves out (the answer itself says only "it has been logged"), through
 * the redacting logger: a secret inside an error message never reaches the log (API-17).
 */
export function logServerFault(logger: Logger, exception: unknown, answered: Problem = toProblem(exception)): void {
  if (answered.status < 500) return;
  if (exception instanceof OneClawError && USER_FACING_SERVER_ERRORS.has(exception.code)) return;
  logger.error({ err: exception }, 'request failed');
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
    return status === 404
      ? problem(404, 'not_found', 'No such route. See docs/api.md for the API.')
      : problem(status, `http_${status}`, exception.message);
  }
  return problem(500, 'internal_error', INTERNAL_DETAIL);
}

function problem(status: number, code: string, detail: string): Problem {
  return { type: 'about:blank', title: titleOf(code), status, code, detail };
}

function titleOf(code: string): string {
  return code.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

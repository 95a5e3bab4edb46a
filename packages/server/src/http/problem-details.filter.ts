import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { OneClawError } from '@oneclaw/core';

/** HTTP status for each domain error code; an unlisted code is a 500. */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  invalid_command: 400,
  invalid_event: 400,
  invalid_expected_revision: 400,
  event_not_serializable: 400,
  invalid_session_id: 400,
  session_not_found: 404,
  group_not_found: 404,
  session_already_started: 409,
  stream_revision_conflict: 409,
  idempotency_conflict: 409,
  group_not_loaded: 409,
  unknown_tool_call: 409,
  tool_call_mismatch: 409,
  payload_too_large: 413,
  storage_unavailable: 503,
  storage_corrupt: 503,
};

/** The part of Express's response this filter uses (keeps @types/express out of the build). */
interface ExpressLikeResponse {
  status(code: number): { type(contentType: string): { send(body: string): unknown } };
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
 * Every error leaves as RFC 9457 problem+json with a stable `code`. Domain errors keep their
 * message (it says what to do); unexpected errors are logged and answered without internals.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<ExpressLikeResponse>();
    const problem = toProblem(exception);
    if (problem.status >= 500 && !(exception instanceof OneClawError)) {
      this.logger.error(exception instanceof Error ? exception.stack ?? exception.message : String(exception));
    }
    response.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
  }
}

export function toProblem(exception: unknown): Problem {
  if (exception instanceof OneClawError) {
    const status = STATUS_BY_CODE[exception.code] ?? 500;
    return { ...exception.details, ...problem(status, exception.code, exception.message) };
  }
  // body-parser reports bad bodies as plain errors with a `type`, before any route runs.
  const bodyError = (exception as { type?: string } | null)?.type;
  if (bodyError === 'entity.too.large') {
    return problem(413, 'payload_too_large', 'The request body is over the size limit. Send less, or raise ONECLAW_BODY_LIMIT_BYTES.');
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
  return problem(500, 'internal_error', 'The server failed to handle this request; it has been logged.');
}

function problem(status: number, code: string, detail: string): Problem {
  return { type: 'about:blank', title: titleOf(code), status, code, detail };
}

function titleOf(code: string): string {
  return code.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { OneClawError } from '@oneclaw/core';
import { tokensEqual } from './api-token';
import { IS_PUBLIC_KEY } from './public.decorator';

/** Injection token for the expected API token (a string), from `loadOrCreateApiToken`. */
export const API_TOKEN = Symbol('ApiToken');

/** The query parameter an EventSource may use instead of the Authorization header. */
export const ACCESS_TOKEN_QUERY_PARAM = 'access_token';

const WHERE_THE_TOKEN_IS =
  "The token is in the `api-token` file in the server's data directory (ONECLAW_DATA_DIR, default ./data) " +
  'and was printed once when the server first started; ONECLAW_API_TOKEN sets it instead.';

/**
 * 401 with a stable code (ProblemDetailsFilter maps `unauthorized` to 401). `challenge` is the
 * WWW-Authenticate value (RFC 6750); the guard also sets the header itself, so the challenge is
 * there whichever exception filter ends up writing the response.
 */
export class UnauthorizedError extends OneClawError {
  constructor(
    message: string,
    readonly challenge: string,
  ) {
    super('unauthorized', message);
  }
}

/** The parts of an Express request and response the guard reads (no @types/express in the build). */
interface RequestLike {
  readonly method?: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query?: unknown;
}
interface ResponseLike {
  setHeader?(name: string, value: string): unknown;
}

/**
 * Deny-by-default authentication (API-06): every route needs `Authorization: Bearer <token>`
 * unless it, or its controller, is marked `@Public()`. Tokens are compared in constant time.
 *
 * One exception: a GET asking for `text/event-stream` may send the token as `?access_token=`,
 * because the browser's EventSource cannot set headers. It is limited to that case because a token
 * in a URL lands in history and access logs; the logger's redactor scrubs it when the token has
 * been added to it.
 *
 * Wiring (AppModule providers):
 *   { provide: API_TOKEN, useValue: apiToken.token },
 *   { provide: APP_GUARD, useClass: BearerAuthGuard },
 * with `unauthorized: 401` in ProblemDetailsFilter's STATUS_BY_CODE. APP_GUARDs run in the
 * order they are provided: list ClientThrottlerGuard first, so token guessing and unauthenticated
 * floods are rate limited too.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(API_TOKEN) private readonly expectedToken: string,
  ) {
    if (typeof expectedToken !== 'string' || expectedToken.length === 0) {
      // Fail at start-up: an empty expected token must never be something a request can match.
      throw new OneClawError('invalid_config', 'BearerAuthGuard needs a non-empty API_TOKEN provider.');
    }
  }

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()]);
    if (isPublic === true) return true;

    const http = context.switchToHttp();
    const request = http.getRequest<RequestLike | undefined>();
    const presented = request === undefined || context.getType() !== 'http' ? undefined : presentedToken(request);
    if (presented !== undefined && tokensEqual(presented, this.expectedToken)) return true;

    const error =
      presented === undefined
        ? new UnauthorizedError(`This API needs a token: send \`Authorization: Bearer <token>\`. ${WHERE_THE_TOKEN_IS}`, 'Bearer realm="oneclaw"')
        : new UnauthorizedError(
            `The API token sent is not valid: send \`Authorization: Bearer <token>\` with the current token. ${WHERE_THE_TOKEN_IS}`,
            'Bearer realm="oneclaw", error="invalid_token"',
          );
    http.getResponse<ResponseLike | undefined>()?.setHeader?.('WWW-Authenticate', error.challenge);
    throw error;
  }
}

/**
 * The token the request brings, or undefined. A present but malformed Authorization header is not
 * silently replaced by the query token: the header, when sent, is the only credential considered.
 */
export function presentedToken(request: RequestLike): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    if (typeof header !== 'string') return undefined;
    const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
    return match?.[1] ?? '';
  }
  if (!isEventStreamGet(request)) return undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.[ACCESS_TOKEN_QUERY_PARAM];
  return typeof fromQuery === 'string' && fromQuery.length > 0 ? fromQuery : undefined;
}

function isEventStreamGet(request: RequestLike): boolean {
  const accept = request.headers.accept;
  return request.method === 'GET' && typeof accept === 'string' && accept.toLowerCase().includes('text/event-stream');
}

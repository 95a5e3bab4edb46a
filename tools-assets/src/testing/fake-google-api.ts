import type { ServerResponse } from 'node:http';
import { startInterceptingProxy, type InterceptedRequest, type InterceptingProxy } from '@oneclaw/js-tools/testing';

/** A request as a fake route sees it. */
export interface GoogleRequest extends InterceptedRequest {
  /** Values of the `{name}` parameters of the route's path (URL-decoded). */
  readonly params: Readonly<Record<string, string>>;
  /** The body parsed as JSON; throws a 400 answer when it is not JSON. */
  json<T = Record<string, unknown>>(): T;
  /** The body as UTF-8 text. */
  text(): string;
}

export interface GoogleResponse {
  readonly status?: number;
  readonly json?: unknown;
  readonly body?: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

export type GoogleRouteHandler = (req: GoogleRequest) => GoogleResponse | Promise<GoogleResponse>;

/** Thrown by a handler (or by `req.json()`) to answer with Google's error shape. */
export class GoogleApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason = statusName(status),
  ) {
    super(message);
  }
}

interface Route {
  readonly method: string;
  readonly host: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handler: GoogleRouteHandler;
  readonly auth: boolean;
}

export const FAKE_GOOGLE_ACCESS_TOKEN = 'ya29.fake-google-access-token';

/**
 * A fake of Google's REST APIs for tests (a fake: it runs on loopback and holds its data in
 * memory). Tools reach it through a TLS-intercepting proxy, exactly as they would reach
 * www.googleapis.com through a corporate proxy, so the tool code runs unchanged against
 * `https://*.googleapis.com` URLs.
 *
 * Like Google, every call must carry `Authorization: Bearer <token>` (401 otherwise), a JSON body
 * must come with `Content-Type: application/json` (400 otherwise), and an unknown method or path
 * is a 404. Routes add the checks of each API's reference (required fields, query parameters);
 * `unmatched` lists requests no route took, so a test can assert the tool called real endpoints.
 */
export class FakeGoogleApi {
  private readonly routes: Route[] = [];
  readonly unmatched: InterceptedRequest[] = [];
  accessToken = FAKE_GOOGLE_ACCESS_TOKEN;

  private constructor(private readonly proxy: InterceptingProxy) {}

  static async start(): Promise<FakeGoogleApi> {
    let api: FakeGoogleApi | undefined;
    const proxy = await startInterceptingProxy((req, res) => api?.handle(req, res));
    api = new FakeGoogleApi(proxy);
    return api;
  }

  get proxyUrl(): string {
    return this.proxy.url;
  }

  get caCertificate(): string {
    return this.proxy.caCertificate;
  }

  /** Every request that reached the fake, in order. */
  get requests(): readonly InterceptedRequest[] {
    return this.proxy.requests;
  }

  /** Forget the recorded requests (between test steps). */
  clearRequests(): void {
    this.proxy.requests.length = 0;
    this.unmatched.length = 0;
  }

  /**
   * `path` is matched against the URL path without its query, written the way Google's reference
   * writes it: `{name}` matches one segment, `{name*}` one or more (resource names such as
   * `people/c123`), and text such as `:batchUpdate` after a parameter is literal:
   * `/v1/documents/{documentId}:batchUpdate`, `/v1/{resourceName*}:updateContact`.
   */
  route(method: string, host: string, path: string, handler: GoogleRouteHandler, options: { auth?: boolean } = {}): this {
    const names: string[] = [];
    const source = path
      .split(/(\{[A-Za-z_][A-Za-z0-9_]*\*?\})/)
      .map((part) => {
        const match = /^\{([A-Za-z_][A-Za-z0-9_]*)(\*?)\}$/.exec(part);
        if (!match) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(match[1] as string);
        return match[2] ? '(.+?)' : '([^/]+?)';
      })
      .join('');
    this.routes.push({ method: method.toUpperCase(), host, pattern: new RegExp(`^${source}$`), names, handler, auth: options.auth !== false });
    return this;
  }

  async close(): Promise<void> {
    await this.proxy.close();
  }

  private async handle(req: InterceptedRequest, res: ServerResponse): Promise<void> {
    try {
      const answer = await this.answer(req);
      send(res, answer);
    } catch (error) {
      if (error instanceof GoogleApiError) send(res, googleError(error.status, error.message, error.reason));
      else send(res, googleError(500, `Fake Google API failed: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  private async answer(req: InterceptedRequest): Promise<GoogleResponse> {
    for (const route of this.routes) {
      if (route.method !== req.method || route.host !== req.host) continue;
      const match = route.pattern.exec(req.path);
      if (!match) continue;
      if (route.auth && req.headers.authorization !== `Bearer ${this.accessToken}`) {
        return googleError(
          401,
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
          'UNAUTHENTICATED',
        );
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = decodeURIComponent(match[i + 1] as string);
      });
      const request: GoogleRequest = {
        ...req,
        params,
        text: () => req.body.toString('utf8'),
        json: <T>() => {
          if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
            throw new GoogleApiError(400, `Invalid Content-Type '${req.headers['content-type'] ?? ''}': the body must be application/json.`, 'INVALID_ARGUMENT');
          }
          try {
            return JSON.parse(req.body.toString('utf8')) as T;
          } catch {
            throw new GoogleApiError(400, 'Invalid JSON payload received.', 'INVALID_ARGUMENT');
          }
        },
      };
      return route.handler(request);
    }
    this.unmatched.push(req);
    return googleError(404, `The fake has no route for ${req.method} https://${req.host}${req.path}.`, 'NOT_FOUND');
  }
}

/** Google's JSON error body: `{"error": {"code", "message", "status"}}`. */
export function googleError(status: number, message: string, reason = statusName(status)): GoogleResponse {
  return { status, json: { error: { code: status, message, status: reason } } };
}

/** Throws a 400 unless every named field is present (not undefined, not empty string). */
export function requireFields(object: Record<string, unknown> | undefined, fields: readonly string[], where = 'request body'): void {
  for (const field of fields) {
    const value = object?.[field];
    if (value === undefined || value === null || value === '') throw new GoogleApiError(400, `Missing required field '${field}' in ${where}.`, 'INVALID_ARGUMENT');
  }
}

/** Throws a 400 unless the query parameter is present. */
export function requireQuery(req: GoogleRequest, names: readonly string[]): void {
  for (const name of names) {
    if (!req.query.has(name)) throw new GoogleApiError(400, `Missing required query parameter '${name}'.`, 'INVALID_ARGUMENT');
  }
}

function send(res: ServerResponse, answer: GoogleResponse): void {
  const status = answer.status ?? 200;
  const headers: Record<string, string> = { ...answer.headers };
  let body: string | Buffer = '';
  if (answer.json !== undefined) {
    body = JSON.stringify(answer.json);
    headers['content-type'] ??= 'application/json; charset=UTF-8';
  } else if (answer.body !== undefined) {
    body = answer.body;
  }
  res.writeHead(status, headers);
  res.end(status === 204 ? undefined : body);
}

function statusName(status: number): string {
  const names: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    409: 'ALREADY_EXISTS',
    412: 'FAILED_PRECONDITION',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
  };
  return names[status] ?? 'UNKNOWN';
}

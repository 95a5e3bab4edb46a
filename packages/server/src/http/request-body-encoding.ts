import { OneClawError } from '@oneclaw/core';

/**
 * Which JSON request bodies the server reads (docs/api.md, "Request bodies"): UTF-8 only, either
 * uncompressed or compressed with one of CONTENT_ENCODINGS. body-parser does the reading; these two
 * middlewares sit before and after it so that every body it refuses leaves as a typed 4xx instead
 * of the 500 its plain `http-errors` objects would otherwise become.
 */

/**
 * The encodings body-parser inflates on every Node version we support. It also inflates zstd, but
 * only on Node versions with zlib zstd support; refusing it everywhere keeps the answer the same
 * whichever Node runs the server.
 */
export const CONTENT_ENCODINGS: readonly string[] = ['identity', 'gzip', 'deflate', 'br'];

/**
 * The media types read as JSON: application/json and the structured-syntax `+json` types
 * (RFC 6839, e.g. application/merge-patch+json), which are JSON by definition.
 */
export const JSON_MEDIA_TYPES: readonly string[] = ['application/json', 'application/*+json'];

/** The parts of Express's request these middlewares use (keeps @types/express out of the build). */
interface RequestLike {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly method?: string;
  readonly originalUrl?: string;
  readonly url?: string;
  is(types: string[]): string | false | null;
}

type Next = (error?: unknown) => void;

export class UnsupportedCharsetError extends OneClawError {
  constructor(charset: string) {
    super(
      'unsupported_charset',
      `The request body's charset "${charset}" is not supported: JSON bodies must be UTF-8 (RFC 8259). Encode the body as UTF-8 and send Content-Type: application/json (charset=utf-8 is optional).`,
      { charset },
    );
  }
}

export class UnsupportedContentEncodingError extends OneClawError {
  constructor(encoding: string) {
    super(
      'unsupported_content_encoding',
      `Content-Encoding "${encoding}" is not supported. Send the body uncompressed, or compressed with exactly one of ${CONTENT_ENCODINGS.filter((e) => e !== 'identity').join(', ')}.`,
      { encoding, supported: CONTENT_ENCODINGS },
    );
  }
}

export class UnsupportedMediaTypeError extends OneClawError {
  constructor(contentType: string) {
    super(
      'unsupported_media_type',
      `The request body's Content-Type is ${contentType ? `"${contentType}"` : 'missing'}, and this route reads only JSON: send the body as JSON with Content-Type: application/json (or send no body).`,
      { contentType, supported: JSON_MEDIA_TYPES },
    );
  }
}

/**
 * Refuses, before anything is read, an /api request that has a body which is not JSON. body-parser
 * skips such a body, so the route used to run as if it had been sent `{}`: a form-encoded
 * `{"sessionId": ...}` started a session with a random id. A request without a body (none, or
 * Content-Length: 0) passes whatever its Content-Type. `rawBodyRoutes` ("METHOD /path") read
 * their body themselves (the attachment upload's file bytes).
 */
export function requireJsonBody(rawBodyRoutes: readonly string[]): (req: RequestLike, res: unknown, next: Next) => void {
  const raw = new Set(rawBodyRoutes);
  return (req, _res, next) => {
    // Lower-cased and without a trailing slash: Express routes /API/Attachments/ to the upload too.
    // A request target in absolute form (`POST http://host/api/sessions`, as sent to a proxy) is
    // routed by its path as well.
    const target = (req.originalUrl ?? req.url ?? '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
    const path = (target.split('?')[0] ?? '').toLowerCase().replace(/\/+$/, '');
    if (!path.startsWith('/api/') || !hasBody(req) || req.is([...JSON_MEDIA_TYPES]) || raw.has(`${req.method ?? ''} ${path}`)) {
      next();
      return;
    }
    next(new UnsupportedMediaTypeError(header(req, 'content-type')));
  };
}

/**
 * Refuses, before anything is read, a JSON body whose charset is not UTF-8 or whose
 * Content-Encoding is not one we inflate. Bodies of other content types are never parsed, so their
 * headers do not matter here.
 */
export function requireSupportedBodyEncoding(): (req: RequestLike, res: unknown, next: Next) => void {
  return (req, _res, next) => {
    // `is` answers null when there is no body, false for another type.
    if (!req.is([...JSON_MEDIA_TYPES])) {
      next();
      return;
    }
    const badCharset = charsetsOf(header(req, 'content-type')).find((charset) => charset.toLowerCase() !== 'utf-8');
    if (badCharset !== undefined) {
      next(new UnsupportedCharsetError(badCharset));
      return;
    }
    const encoding = contentEncodingOf(req);
    if (!CONTENT_ENCODINGS.includes(encoding)) {
      next(new UnsupportedContentEncodingError(encoding));
      return;
    }
    next();
  };
}

/**
 * Turns body-parser's refusals into typed errors. An error without a body-parser `type` on a
 * compressed request is the decompressor's: the body is not what its Content-Encoding says.
 */
export function bodyParserErrors(): (error: unknown, req: RequestLike, res: unknown, next: Next) => void {
  return (error, req, _res, next) => {
    next(translate(error, req));
  };
}

function translate(error: unknown, req: RequestLike): unknown {
  if (error instanceof OneClawError) return error;
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  switch (type) {
    case 'entity.too.large':
      return new OneClawError('payload_too_large', 'The request body is over the size limit (counted after decompression). Send less, or raise ONECLAW_BODY_LIMIT_BYTES.');
    // Both are refused earlier by requireSupportedBodyEncoding; mapped here too so a body-parser
    // upgrade that refuses more cannot turn them back into 500s.
    case 'charset.unsupported':
      return new UnsupportedCharsetError(String((error as { charset?: unknown }).charset ?? 'unknown'));
    case 'encoding.unsupported':
      return new UnsupportedContentEncodingError(contentEncodingOf(req));
    // The body ended before its Content-Length (the client went away or lied about the length).
    // Usually nobody is left to read the answer, but it must not be logged as a server fault.
    case 'request.aborted':
    case 'request.size.invalid':
      return new OneClawError(
        'invalid_body',
        'The request body ended before the length its Content-Length header announced. Send the whole body, with a Content-Length that matches it.',
      );
  }
  const encoding = contentEncodingOf(req);
  if (type === undefined && status === 400 && encoding !== 'identity') {
    return new OneClawError(
      'invalid_body',
      `The request body is not valid ${encoding} data, though Content-Encoding says it is. Compress the whole JSON body with ${encoding}, or send it uncompressed without Content-Encoding.`,
      { encoding },
    );
  }
  return error;
}

function header(req: RequestLike, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

/**
 * Whether the request carries body bytes. Not type-is's hasBody: that counts Content-Length: 0
 * as a body, and a bodiless POST (fetch with body '') must pass whatever its Content-Type.
 */
function hasBody(req: RequestLike): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return Number(header(req, 'content-length') || '0') > 0;
}

function contentEncodingOf(req: RequestLike): string {
  return header(req, 'content-encoding').trim().toLowerCase() || 'identity';
}

/**
 * Every charset parameter in a Content-Type, quoted or not. All of them are checked: which one a
 * parser honours when there are several is its own choice.
 */
function charsetsOf(contentType: string): string[] {
  return [...contentType.matchAll(/;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/gi)].map((m) => m[1] ?? m[2] ?? '');
}

import { X509Certificate } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { once } from 'node:events';
import { STATUS_CODES } from 'node:http';
import type { LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { OneClawError } from '@oneclaw/core';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { checkTargetUrl, classifyAddress } from './address-policy';
import { resolveFetchPolicy, type FetchPolicy, type ResolvedAddress, type ResolvedFetchPolicy } from './fetch-policy';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export interface HttpRequest {
  readonly url: string;
  readonly method: HttpMethod;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

export interface HttpResponse {
  readonly status: number;
  readonly statusText: string;
  /** Final URL, after redirects. */
  readonly url: string;
  /** Lower-case names; repeated values joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** Empty when the body was streamed to a destination. */
  readonly body: Uint8Array;
  /** Body bytes received (as sent on the wire; content encodings are not decoded). */
  readonly bytes: number;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  /**
   * Stream the body here instead of buffering (downloads); the limit is then maxDownloadBytes.
   * It is ended when the body is complete. On failure it is left open and not ended: the caller
   * discards (and destroys) the partial output. A OneClawError the destination fails with (such as
   * a confined file's size limit) is passed through unchanged; other write errors are network_error.
   */
  readonly destination?: NodeJS.WritableStream;
  /**
   * This request's body limit in place of the policy's (maxResponseBytes buffered,
   * maxDownloadBytes streamed): host code that must hold a larger body whole, within its own cap.
   */
  readonly maxBytes?: number;
}

export type FetchErrorCode = 'forbidden_url' | 'egress_denied' | 'invalid_request' | 'timeout' | 'response_too_large' | 'too_many_redirects' | 'network_error' | 'aborted';

/**
 * A failed request. The message says what happened and what to do; it names the origin only, never
 * the path, query, header values or body, because those may carry secrets.
 */
export class FetchError extends OneClawError {
  declare readonly code: FetchErrorCode;

  constructor(code: FetchErrorCode, message: string, details: Readonly<Record<string, unknown>> = {}, cause?: unknown) {
    super(code, message, details);
    if (cause !== undefined) {
      Object.defineProperty(this, 'cause', { value: cause, enumerable: false, writable: true, configurable: true });
    }
  }
}

const METHODS: ReadonlySet<string> = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** The only caller headers that survive a cross-origin redirect: none of them can carry a credential. */
const CROSS_ORIGIN_HEADERS: ReadonlySet<string> = new Set(['user-agent', 'accept', 'accept-language']);
/** Headers describing the request body; they go when a redirect turns the request into a GET. */
const BODY_HEADERS: readonly string[] = ['content-type', 'content-encoding', 'content-language', 'content-location'];
/** Connection-level headers the client owns (as a browser's fetch does); caller values are ignored. */
const CLIENT_OWNED_HEADERS: ReadonlySet<string> = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const DEFAULT_USER_AGENT = 'OneClaw';
/** How much of a redirect response body is read to keep the connection reusable. */
const REDIRECT_BODY_DRAIN_BYTES = 64 * 1024;

/**
 * The host-side HTTP client behind the sandbox's `fetch` bridge. Every URL, every redirect hop and
 * (without a proxy) every DNS answer is checked against the policy; bodies and time are capped.
 * One undici dispatcher per instance, reused across requests; call close() when done.
 */
export class SafeFetch {
  readonly policy: ResolvedFetchPolicy;
  readonly #dispatcher: Dispatcher;
  #closed = false;

  constructor(policy: FetchPolicy = {}) {
    this.policy = resolveFetchPolicy(policy);
    this.#dispatcher = createDispatcher(this.policy);
  }

  async request(req: HttpRequest, options: RequestOptions = {}): Promise<HttpResponse> {
    if (this.#closed) throw new FetchError('invalid_request', 'This HTTP client has been closed; create a new one.');
    let method = checkMethod(req.method);
    let headers = normalizeHeaders(req.headers);
    let body = req.body;
    if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
      throw new FetchError('invalid_request', `A ${method} request cannot have a body; use POST or PUT to send data.`);
    }
    let url = this.#checkUrl(req.url, undefined);
    const lifetime = new RequestLifetime(this.policy.timeoutMs, options.signal, url);
    try {
      let redirects = 0;
      let crossedOrigin = false;
      for (;;) {
        lifetime.current = url;
        lifetime.signal.throwIfAborted();
        const res = await this.#dispatcher.request({
          origin: url.origin,
          path: url.pathname + url.search,
          method,
          headers: crossedOrigin ? pick(headers, CROSS_ORIGIN_HEADERS) : headers,
          body,
          signal: lifetime.signal,
        });
        const location = REDIRECT_STATUSES.has(res.statusCode) ? firstValue(res.headers['location']) : undefined;
        if (location === undefined) {
          return await this.#readResponse(res, url, method, options, lifetime.signal);
        }
        await res.body.dump({ limit: REDIRECT_BODY_DRAIN_BYTES }).catch(() => undefined);
        if (redirects >= this.policy.maxRedirects) {
          throw new FetchError(
            'too_many_redirects',
            `Stopped after ${redirects} redirects (the limit) at ${url.origin}; the server redirects in a loop or the chain is too long.`,
            { origin: url.origin, maxRedirects: this.policy.maxRedirects },
          );
        }
        redirects += 1;
        const next = this.#checkUrl(resolveLocation(location, url), url);
        // Sticky: once the chain has left the origin, credentials never come back, even to the origin.
        if (next.origin !== url.origin) crossedOrigin = true;
        if (switchesToGet(res.statusCode, method)) {
          method = 'GET';
          body = undefined;
          headers = omit(headers, BODY_HEADERS);
        }
        // A 307/308 re-sends the body, which may hold credentials (a token request's client
        // secret): never to another origin.
        if (crossedOrigin && body !== undefined) {
          throw new FetchError(
            'forbidden_url',
            `${url.origin} redirected a request with a body to ${next.origin}; the body was not re-sent to another origin. Call ${next.origin} directly if that is intended.`,
            { origin: url.origin, redirectedTo: next.origin },
          );
        }
        url = next;
      }
    } catch (err) {
      throw lifetime.translate(err);
    } finally {
      lifetime.dispose();
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#dispatcher.close();
  }

  #checkUrl(raw: string, redirectedFrom: URL | undefined): URL {
    const verdict = checkTargetUrl(raw, this.policy);
    if (verdict.allowed) {
      verdict.url.hash = ''; // never sent; keeps it out of HttpResponse.url as well
      return verdict.url;
    }
    if (!redirectedFrom) throw new FetchError(verdict.code, verdict.reason);
    throw new FetchError(verdict.code, `The redirect from ${redirectedFrom.origin} was not followed: ${verdict.reason}`, { redirectedFrom: redirectedFrom.origin });
  }

  async #readResponse(res: Dispatcher.ResponseData, url: URL, method: HttpMethod, options: RequestOptions, signal: AbortSignal): Promise<HttpResponse> {
    const destination = options.destination;
    const limit = options.maxBytes ?? (destination ? this.policy.maxDownloadBytes : this.policy.maxResponseBytes);
    const headers = flattenHeaders(res.headers);
    const declared = Number(headers['content-length']);
    // HEAD, 204 and 304 announce a length they never send.
    const hasBody = method !== 'HEAD' && res.statusCode !== 204 && res.statusCode !== 304;
    if (hasBody && Number.isFinite(declared) && declared > limit) {
      res.body.destroy();
      throw tooLarge(url, limit, declared);
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    // Leaving the loop early (cap, abort, destination error) destroys the body and so the socket.
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > limit) throw tooLarge(url, limit, undefined);
      if (!destination) chunks.push(chunk);
      else
        await writeTo(destination, signal, async () => {
          if (!destination.write(chunk)) await once(destination, 'drain', { signal });
        });
    }
    if (destination) await writeTo(destination, signal, () => endDestination(destination));
    return {
      status: res.statusCode,
      statusText: res.statusText || STATUS_CODES[res.statusCode] || '',
      url: url.href,
      headers,
      body: destination ? new Uint8Array(0) : Buffer.concat(chunks, bytes),
      bytes,
    };
  }
}

function createDispatcher(policy: ResolvedFetchPolicy): Dispatcher {
  const tls = trustOptions(policy.caCertificates);
  if (policy.proxyUrl !== undefined) {
    // The proxy is operator-configured and resolves names itself, so no local DNS check here.
    // proxyTunnel false: plain http:// goes in absolute form (as curl does); https:// is tunnelled
    // with CONNECT and the extra CAs apply to the TLS inside the tunnel (requestTls).
    return new ProxyAgent({ uri: policy.proxyUrl, proxyTunnel: false, requestTls: tls, proxyTls: tls });
  }
  return new Agent({ connect: { ...tls, lookup: createPinnedLookup(policy.resolve, policy.allowPrivateNetwork) } });
}

/** Node's default CAs plus the policy's extra ones, built once: `ca` alone would replace the defaults. */
function trustOptions(caCertificates: readonly string[]): { secureContext?: SecureContext } {
  if (caCertificates.length === 0) return {};
  caCertificates.forEach(checkPemCertificates);
  return { secureContext: createSecureContext({ ca: [...rootCertificates, ...caCertificates] }) };
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function checkPemCertificates(pem: string, index: number): void {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  try {
    if (blocks.length === 0) throw new Error('no PEM certificate block');
    blocks.forEach((block) => new X509Certificate(block));
  } catch (err) {
    throw new OneClawError(
      'invalid_fetch_policy',
      `FetchPolicy.caCertificates[${index}] is not a PEM certificate (${errorText(err)}); ` + 'pass the CA certificate text starting with -----BEGIN CERTIFICATE-----.',
      { field: 'caCertificates', index },
    );
  }
}

/**
 * The undici connector's DNS hook. It resolves once through the policy, rejects the whole answer
 * if any address is not public, and hands exactly those addresses to the socket: no second lookup
 * happens between the check and the connect, so DNS rebinding cannot swap the target.
 */
export function createPinnedLookup(resolve: (hostname: string) => Promise<readonly ResolvedAddress[]>, allowPrivateNetwork: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    resolveChecked(hostname, resolve, allowPrivateNetwork).then(
      (answers) => {
        const usable: LookupAddress[] = answers.filter((a) => family === undefined || a.family === family).map((a) => ({ address: a.address, family: a.family }));
        const first = usable[0];
        // nextTick: an exception in the socket's callback must not become a swallowed rejection.
        process.nextTick(() => {
          if (!first) callback(new FetchError('network_error', `${hostname} has no IPv${family ?? ''} address.`), '');
          else if (options.all) callback(null, usable);
          else callback(null, first.address, first.family);
        });
      },
      (err: unknown) => process.nextTick(() => callback(err as NodeJS.ErrnoException, '')),
    );
  };
}

async function resolveChecked(
  hostname: string,
  resolve: (hostname: string) => Promise<readonly ResolvedAddress[]>,
  allowPrivateNetwork: boolean,
): Promise<readonly ResolvedAddress[]> {
  let answers: readonly ResolvedAddress[];
  try {
    answers = await resolve(hostname);
  } catch (err) {
    throw new FetchError('network_error', `The host name ${hostname} could not be resolved (${errorText(err)}); check the spelling of the URL.`, { host: hostname }, err);
  }
  if (answers.length === 0) {
    throw new FetchError('network_error', `The host name ${hostname} has no addresses; check the URL.`, { host: hostname });
  }
  if (!allowPrivateNetwork) {
    for (const answer of answers) {
      const cls = classifyAddress(answer.address);
      if (!cls.isPublic) {
        throw new FetchError(
          'forbidden_url',
          `${hostname} resolves to ${answer.address}, a non-public address (${cls.range}); tools may only reach ` +
            'public internet hosts. Use a public URL (an operator can set allowPrivateNetwork for internal services).',
          { host: hostname, address: answer.address, range: cls.range },
        );
      }
    }
  }
  return answers;
}

/** One abort signal per request: the overall timeout and the caller's signal, with the reason kept. */
class RequestLifetime {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #caller: AbortSignal | undefined;
  readonly #onCallerAbort = (): void => this.#controller.abort(this.#abortedError());
  current: URL;

  constructor(timeoutMs: number, caller: AbortSignal | undefined, url: URL) {
    this.current = url;
    this.#caller = caller;
    this.#timer = setTimeout(() => {
      this.#controller.abort(
        new FetchError(
          'timeout',
          `The request to ${this.current.origin} did not finish within ${timeoutMs} ms (redirects and body included); ` + 'retry later or request less data.',
          { origin: this.current.origin, timeoutMs },
        ),
      );
    }, timeoutMs);
    if (caller?.aborted) this.#onCallerAbort();
    else caller?.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }

  translate(err: unknown): OneClawError {
    if (err instanceof OneClawError) return err;
    const reason: unknown = this.signal.aborted ? this.signal.reason : undefined;
    if (reason instanceof FetchError) return reason;
    return networkError(err, this.current);
  }

  #abortedError(): FetchError {
    return new FetchError('aborted', `The request to ${this.current.origin} was cancelled by the caller.`, {
      origin: this.current.origin,
    });
  }
}

function networkError(err: unknown, url: URL): FetchError {
  const origin = url.origin;
  const code = errorCode(err);
  if (code !== undefined && isCertificateError(code)) {
    return new FetchError(
      'network_error',
      `The TLS certificate of ${origin} was rejected (${errorText(err)}). If traffic passes through a ` +
        'TLS-inspecting proxy, the operator must add its CA certificate to caCertificates.',
      { origin, cause: code },
      err,
    );
  }
  return new FetchError(
    'network_error',
    `The request to ${origin} failed (${errorText(err)}); check the URL and that the server is reachable, then retry.`,
    { origin, ...(code === undefined ? {} : { cause: code }) },
    err,
  );
}

function isCertificateError(code: string): boolean {
  return code.includes('CERT') || code.startsWith('UNABLE_TO_') || code === 'HOSTNAME_MISMATCH';
}

/** The most telling `code` along the error's cause chain (undici wraps socket and TLS errors). */
function errorCode(err: unknown): string | undefined {
  const codes: string[] = [];
  for (let e = errorLike(err), depth = 0; e && depth < 5; e = errorLike(e.cause), depth++) {
    if (typeof e.code === 'string') codes.push(e.code);
  }
  return codes.find(isCertificateError) ?? codes[0];
}

function errorText(err: unknown): string {
  const e = errorLike(err);
  if (typeof e?.message !== 'string') return String(err);
  const cause = errorLike(e.cause)?.message;
  const text = typeof cause === 'string' ? `${e.message}: ${cause}` : e.message;
  const code = errorCode(err);
  return code !== undefined && !text.includes(code) ? `${code}: ${text}` : text;
}

/** Duck-typed, not instanceof: Node's own errors come from another realm under Jest and in workers. */
function errorLike(value: unknown): { code?: unknown; message?: unknown; cause?: unknown } | undefined {
  return typeof value === 'object' && value !== null ? value : undefined;
}

function tooLarge(url: URL, limit: number, declared: number | undefined): FetchError {
  const size = declared === undefined ? 'more than that' : `${declared} bytes`;
  return new FetchError(
    'response_too_large',
    `The response from ${url.origin} is larger than the ${limit}-byte limit (${size}); reading stopped. ` + 'Request a smaller range or page of data.',
    { origin: url.origin, limit, ...(declared === undefined ? {} : { declared }) },
  );
}

function checkMethod(method: string): HttpMethod {
  if (!METHODS.has(method)) {
    throw new FetchError('invalid_request', `The method ${JSON.stringify(String(method).slice(0, 20))} is not supported; use GET, POST, PUT, PATCH, DELETE or HEAD.`);
  }
  return method as HttpMethod;
}

/** Lower-cases names, joins duplicates, rejects malformed headers and drops client-owned ones. */
function normalizeHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const shown = JSON.stringify(name.slice(0, 64));
    if (!HEADER_NAME.test(name)) {
      throw new FetchError('invalid_request', `${shown} is not a valid HTTP header name.`);
    }
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) {
      throw new FetchError('invalid_request', `The value of header ${shown} must be a string without CR, LF or NUL.`);
    }
    const lower = name.toLowerCase();
    if (CLIENT_OWNED_HEADERS.has(lower) || lower.startsWith('proxy-')) continue;
    const previous = out[lower];
    out[lower] = previous === undefined ? value : `${previous}, ${value}`;
  }
  out['user-agent'] ??= DEFAULT_USER_AGENT;
  return out;
}

function pick(headers: Record<string, string>, keep: ReadonlySet<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => keep.has(name)));
}

function omit(headers: Record<string, string>, drop: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.includes(name)));
}

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new FetchError('network_error', `${base.origin} answered with a redirect whose Location is not a valid URL; the server is misconfigured.`, { origin: base.origin });
  }
}

/** 303 turns anything but GET/HEAD into GET; 301/302 do so for POST (as browsers do). */
function switchesToGet(status: number, method: HttpMethod): boolean {
  if (status === 303) return method !== 'GET' && method !== 'HEAD';
  return (status === 301 || status === 302) && method === 'POST';
}

/** Runs a write to the caller's destination, reporting its failures as such (not as network trouble). */
async function writeTo(destination: NodeJS.WritableStream, signal: AbortSignal, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    // A typed error from the destination (e.g. a confined file's size limit) keeps its own code.
    if (signal.aborted || err instanceof OneClawError) throw err;
    throw new FetchError('network_error', `Writing the response body to its destination failed (${errorText(err)}); check where the download is saved.`, {}, err);
  }
}

async function endDestination(destination: NodeJS.WritableStream): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (err: unknown): void => reject(err);
    destination.once('error', onError);
    destination.end(() => {
      destination.removeListener('error', onError);
      resolve();
    });
  });
}

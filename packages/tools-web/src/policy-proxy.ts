import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction, type Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { Duplex } from 'node:stream';
import type { ResolvedAddress } from '@oneclaw/js-tools';
import { checkWebTarget, memoizedResolver, type TargetVerdict, type WebPolicy } from './web-target';

/** A request the proxy refused (policy) or could not complete (network). */
export interface ProxyIncident {
  readonly kind: 'blocked' | 'failed';
  /** The origin (scheme, host, port); never the path or query. */
  readonly origin: string;
  readonly reason: string;
}

/** Marks the proxy's own refusal and failure answers, so the browser tool can tell them from the site's. */
export const BLOCKED_HEADER = 'x-oneclaw-blocked';
export const FAILED_HEADER = 'x-oneclaw-failed';

/** Headers about this hop only; never forwarded (RFC 9110 section 7.6.1). */
const HOP_HEADERS: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade']);

/**
 * A forward proxy on 127.0.0.1 that every connection of one browser call goes through. Page
 * requests, redirects, sub-resources, fetch/XHR, WebSockets and workers are all checked against the
 * tools' fetch policy (checkWebTarget) and connect to the checked addresses only. Playwright's
 * request routing cannot do this: it never sees redirect hops, and the browser would resolve the
 * name again after the check.
 *
 * Plain HTTP arrives as absolute-form requests and is forwarded; HTTPS and WebSockets arrive as
 * CONNECT and are tunnelled (the proxy sees host and port, not the encrypted traffic). With an
 * operator proxy configured, traffic is passed on to it (names are then not resolved here, as in
 * SafeFetch; literal and local addresses are still refused).
 */
export class PolicyProxy {
  /** What was refused or failed, in order; the browser tool reports them to the model. */
  readonly incidents: ProxyIncident[] = [];
  readonly #sockets = new Set<Duplex>();
  readonly #policy: WebPolicy;
  readonly #upstream: URL | undefined;
  #closed = false;

  private constructor(
    private readonly server: http.Server,
    policy: WebPolicy,
  ) {
    this.#policy = { ...policy, resolve: memoizedResolver(policy.resolve) };
    this.#upstream = policy.proxyUrl === undefined ? undefined : new URL(policy.proxyUrl);
    // Whatever goes wrong with one request ends that request only; nothing may reach the process as an unhandled rejection.
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.#forward(req, res).catch((error: unknown) => this.#internalError(req.url, error, () => (res.headersSent ? res.destroy() : res.writeHead(502).end())));
    });
    server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.#tunnel(req, socket, head).catch((error: unknown) => this.#internalError(req.url, error, () => socket.destroy()));
    });
    server.on('connection', (socket: Socket) => this.#track(socket));
  }

  static async start(policy: WebPolicy): Promise<PolicyProxy> {
    const server = http.createServer();
    const proxy = new PolicyProxy(server, policy);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  /** http://127.0.0.1:port, for the browser context's proxy setting. */
  get url(): string {
    const address = this.server.address() as net.AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async #forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('This is a forward proxy: send absolute-form requests.');
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Only http:// is forwarded; https:// goes through CONNECT.');
      return;
    }
    const verdict = await checkWebTarget(url, this.#policy);
    if (!verdict.allowed) {
      this.#refuse(verdict, url.origin, (status, header, text) => res.writeHead(status, { 'content-type': 'text/plain', [header]: '1' }).end(text));
      return;
    }
    const headers = forwardedHeaders(req.headers);
    const upstream = this.#upstream;
    const options: http.RequestOptions = upstream
      ? { ...proxyEndpoint(upstream, this.#policy), method: req.method, path: url.href, headers: { ...headers, ...proxyAuthorization(upstream) } }
      : { ...pinned(verdict), port: Number(url.port || 80), method: req.method, path: url.pathname + url.search, headers };
    const outgoing = (upstream?.protocol === 'https:' ? https : http).request({ ...options, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.headers));
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    outgoing.on('error', (error) => {
      const reason = `The connection to ${url.origin} failed (${errorText(error)}).`;
      this.incidents.push({ kind: 'failed', origin: url.origin, reason });
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain', [FAILED_HEADER]: '1' }).end(reason);
    });
    req.pipe(outgoing);
  }

  async #tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.#track(client);
    const target = parseAuthority(req.url ?? '');
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    // CONNECT carries no scheme: port 80 is plain HTTP (ws://), anything else is checked as https://.
    const url = new URL(`${target.port === 80 ? 'http' : 'https'}://${target.authority}/`);
    const origin = url.origin;
    const verdict = await checkWebTarget(url, this.#policy);
    if (!verdict.allowed) {
      this.#refuse(verdict, origin, (status, header) => client.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${header}: 1\r\n\r\n`));
      return;
    }
    const connected = (server: Duplex, serverHead: Buffer): void => {
      this.#track(server);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (serverHead.length > 0) client.write(serverHead);
      if (head.length > 0) server.write(head);
      server.pipe(client);
      client.pipe(server);
    };
    const failed = (error: unknown): void => {
      this.incidents.push({ kind: 'failed', origin, reason: `The connection to ${origin} failed (${errorText(error)}).` });
      client.end(`HTTP/1.1 502 Bad Gateway\r\n${FAILED_HEADER}: 1\r\n\r\n`);
    };
    const upstream = this.#upstream;
    if (!upstream) {
      const server = net.connect({ ...pinned(verdict), port: target.port });
      server.once('connect', () => {
        server.removeListener('error', failed);
        server.on('error', () => client.destroy());
        connected(server, Buffer.alloc(0));
      });
      server.once('error', failed);
      return;
    }
    const request = (upstream.protocol === 'https:' ? https : http).request({
      ...proxyEndpoint(upstream, this.#policy),
      agent: false,
      method: 'CONNECT',
      path: target.authority,
      headers: { host: target.authority, ...proxyAuthorization(upstream) },
    });
    request.once('connect', (answer, server, serverHead) => {
      if (answer.statusCode !== 200) {
        server.destroy();
        failed(new Error(`the outbound proxy answered ${answer.statusCode ?? '?'} to CONNECT`));
        return;
      }
      server.on('error', () => client.destroy());
      connected(server, serverHead);
    });
    request.once('error', failed);
    request.end();
  }

  #refuse(verdict: Exclude<TargetVerdict, { allowed: true }>, origin: string, answer: (status: number, header: string, text: string) => void): void {
    if (verdict.code === 'unresolvable') {
      this.incidents.push({ kind: 'failed', origin, reason: verdict.reason });
      answer(502, FAILED_HEADER, verdict.reason);
      return;
    }
    this.incidents.push({ kind: 'blocked', origin, reason: verdict.reason });
    answer(403, BLOCKED_HEADER, `Blocked by the OneClaw tool policy: ${verdict.reason}`);
  }

  #internalError(target: string | undefined, error: unknown, end: () => void): void {
    this.incidents.push({ kind: 'failed', origin: originOf(target), reason: `The request could not be passed on (${errorText(error)}).` });
    end();
  }

  #track(socket: Duplex): void {
    if (this.#closed) {
      socket.destroy();
      return;
    }
    this.#sockets.add(socket);
    // A peer that goes away mid-transfer is normal for a browser; it must never become an uncaught error.
    socket.on('error', () => socket.destroy());
    socket.once('close', () => this.#sockets.delete(socket));
  }
}

/** Connect to exactly the checked addresses: the socket's own lookup returns them instead of asking DNS again. */
function pinned(verdict: Extract<TargetVerdict, { allowed: true }>): { host: string; lookup?: LookupFunction } {
  const addresses = verdict.addresses;
  if (!addresses || net.isIP(verdict.host) !== 0) return { host: verdict.host };
  return { host: verdict.host, lookup: pinnedLookup(addresses) };
}

function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const usable = addresses.filter((a) => !options.family || a.family === options.family);
    const first = usable[0];
    process.nextTick(() => {
      if (!first) callback(Object.assign(new Error('no address of the requested family'), { code: 'ENOTFOUND' }), '');
      else if (options.all)
        callback(
          null,
          usable.map((a) => ({ address: a.address, family: a.family })),
        );
      else callback(null, first.address, first.family);
    });
  };
}

function proxyEndpoint(upstream: URL, policy: WebPolicy): http.RequestOptions & https.RequestOptions {
  const port = Number(upstream.port || (upstream.protocol === 'https:' ? 443 : 80));
  const extraCas = policy.caCertificates ?? [];
  return {
    host: upstream.hostname.replace(/^\[|\]$/g, ''),
    port,
    ...(upstream.protocol === 'https:' && extraCas.length > 0 ? { ca: [...rootCertificates, ...extraCas] } : {}),
  };
}

function proxyAuthorization(upstream: URL): Record<string, string> {
  if (upstream.username === '') return {};
  const credentials = `${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

function forwardedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_HEADERS.has(name.toLowerCase())));
}

/** `host:port` of a CONNECT request (`[v6]:port` for IPv6); the port is required. */
function parseAuthority(authority: string): { authority: string; port: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:/[\]\s]+):(\d{1,5})$/i.exec(authority);
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { authority, port };
}

/** The origin of an absolute URL or a CONNECT authority, for incidents; never the path. */
function originOf(target: string | undefined): string {
  try {
    return new URL(target ?? '').origin;
  } catch {
    return target?.split('/')[0] ?? '';
  }
}

function errorText(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'string') return e.code;
  return typeof e?.message === 'string' ? e.message : String(error);
}

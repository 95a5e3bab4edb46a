import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';

/** One request as the intercepting proxy saw it, decrypted. */
export interface InterceptedRequest {
  readonly method: string;
  /** Absolute URL: https://host/path?query for tunnelled TLS, http://host/path?query for plain requests. */
  readonly url: string;
  readonly host: string;
  /** Path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Lower-case names; repeated values joined with ", ". */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** Answers one intercepted request through `res`; may be async. Its return value is ignored. */
export type InterceptHandler = (req: InterceptedRequest, res: http.ServerResponse) => unknown;

export interface InterceptingProxy {
  /** http://127.0.0.1:port, for FetchPolicy.proxyUrl. */
  readonly url: string;
  /** PEM of the fixture CA that signed the proxy's certificate, for FetchPolicy.caCertificates. */
  readonly caCertificate: string;
  /** Every request handed to the handler, in arrival order. */
  readonly requests: InterceptedRequest[];
  close(): Promise<void>;
}

/** Test-only certificates (see fixtures/README.md). Resolved from the package root so src/ and dist/ both work. */
export const INTERCEPTING_PROXY_FIXTURES = path.resolve(__dirname, '../../src/testing/fixtures');

interface Fixtures {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

let fixtures: Fixtures | undefined;

function loadFixtures(): Fixtures {
  fixtures ??= {
    ca: fs.readFileSync(path.join(INTERCEPTING_PROXY_FIXTURES, 'test-ca.cert.pem'), 'utf8'),
    cert: fs.readFileSync(path.join(INTERCEPTING_PROXY_FIXTURES, 'test-leaf.cert.pem'), 'utf8'),
    key: fs.readFileSync(path.join(INTERCEPTING_PROXY_FIXTURES, 'test-leaf.key.pem'), 'utf8'),
  };
  return fixtures;
}

/**
 * A loopback HTTP proxy for tests that speaks the real wire format. `CONNECT host:port` is answered
 * with 200 and the tunnel's TLS is terminated with a fixture certificate for `*.googleapis.com`,
 * `*.example.com`, `*.example.org` and their apexes (a plain tunnel when the port is 80);
 * absolute-form requests (`GET http://host/path`) are served directly. Every decrypted request,
 * body read in full, goes to `handler`; nothing is forwarded anywhere.
 */
export async function startInterceptingProxy(handler: InterceptHandler): Promise<InterceptingProxy> {
  const { ca, cert, key } = loadFixtures();
  const secureContext = tls.createSecureContext({ cert, key });
  const requests: InterceptedRequest[] = [];
  const tunnels = new Set<Socket>();
  /** Origin of each tunnel's inner socket, from its CONNECT line. */
  const tunnelOrigins = new WeakMap<Socket, string>();

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse, target: URL): Promise<void> => {
    const body = await readAll(req);
    const intercepted: InterceptedRequest = {
      method: req.method ?? 'GET',
      url: target.href,
      host: target.hostname,
      path: target.pathname,
      query: target.searchParams,
      headers: flattenHeaders(req.headers),
      body,
    };
    requests.push(intercepted);
    await handler(intercepted, res);
  };
  const guarded = (req: http.IncomingMessage, res: http.ServerResponse, target: URL): void => {
    serve(req, res, target).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`intercepting proxy handler failed: ${String(err)}`);
    });
  };

  // Serves what arrives inside CONNECT tunnels; it never listens itself.
  const inner = http.createServer((req, res) => {
    const origin = tunnelOrigins.get(req.socket) ?? 'https://unknown.invalid';
    guarded(req, res, new URL(req.url ?? '/', origin));
  });

  const front = http.createServer((req, res) => {
    let target: URL | undefined;
    try {
      target = new URL(req.url ?? '');
    } catch {
      target = undefined;
    }
    if (target?.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('intercepting proxy: expected an absolute-form http:// request');
      return;
    }
    guarded(req, res, target);
  });

  front.on('connect', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    tunnels.add(socket);
    socket.on('close', () => tunnels.delete(socket));
    socket.on('error', () => socket.destroy());
    let authority: URL;
    try {
      // https:// so that an explicit :80 survives (it is the default port of http://).
      authority = new URL(`https://${req.url ?? ''}`);
    } catch {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    const port = authority.port === '' ? '443' : authority.port;
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    if (port === '80') {
      tunnelOrigins.set(socket, `http://${authority.hostname}`);
      inner.emit('connection', socket);
      return;
    }
    const tlsSocket = new tls.TLSSocket(socket, { isServer: true, secureContext });
    tlsSocket.on('error', () => socket.destroy());
    tunnelOrigins.set(tlsSocket, `https://${authority.hostname}${port === '443' ? '' : `:${port}`}`);
    inner.emit('connection', tlsSocket);
  });
  front.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(0, '127.0.0.1', () => {
      front.off('error', reject);
      resolve();
    });
  });
  const { port } = front.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    caCertificate: ca,
    requests,
    async close(): Promise<void> {
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      front.closeAllConnections();
      inner.closeAllConnections();
      for (const socket of tunnels) socket.destroy();
      await closed;
    },
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

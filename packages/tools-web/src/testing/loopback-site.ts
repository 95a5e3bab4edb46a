import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Test support (not used by the server): a real HTTP site on 127.0.0.1 serving fixed routes. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface LoopbackSite {
  readonly port: number;
  /** http://127.0.0.1:port */
  readonly origin: string;
  /** Every request received, in order. */
  readonly requests: SeenRequest[];
  /** Paths requested so far. */
  paths(): string[];
  close(): Promise<void>;
}

/** Unknown paths answer 404 with a short text body. */
export async function startLoopbackSite(routes: Readonly<Record<string, Route>>): Promise<LoopbackSite> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? '', path, headers: req.headers });
    const route = routes[path.split('?')[0] ?? path];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end(`no route for ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    requests,
    paths: () => requests.map((r) => r.path),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A route answering with a fixed body. */
export function serve(contentType: string, body: string | Buffer, status = 200, headers: Readonly<Record<string, string>> = {}): Route {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType, ...headers });
    res.end(body);
  };
}

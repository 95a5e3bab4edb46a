import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Test support for the net integration tests (not exported from the package). */
export interface SeenRequest {
  readonly method: string;
  /** Path and query as received. */
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  /** The server-side address the client's socket reached. */
  readonly localAddress: string | undefined;
}

export interface LoopbackServer {
  readonly port: number;
  /** http://127.0.0.1:port */
  readonly origin: string;
  readonly requests: SeenRequest[];
  /** Number of TCP connections accepted. */
  connections(): number;
  close(): Promise<void>;
}

/** A plain HTTP server on 127.0.0.1 that records what it receives; close() drops open connections. */
export async function startLoopbackServer(handler: (req: SeenRequest, res: http.ServerResponse) => void): Promise<LoopbackServer> {
  const requests: SeenRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        localAddress: req.socket.localAddress,
      };
      requests.push(seen);
      handler(seen, res);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    async close(): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

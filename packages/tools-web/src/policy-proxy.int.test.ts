import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { resolveFetchPolicy, type FetchPolicy } from '@oneclaw/js-tools';
import { serve, startLoopbackSite, type LoopbackSite } from './testing/loopback-site';
import { BLOCKED_HEADER, FAILED_HEADER, PolicyProxy } from './policy-proxy';

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** A plain HTTP request sent through a forward proxy (absolute-form), as a browser sends it. */
function viaProxy(proxy: PolicyProxy, url: string): Promise<Answer> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: Number(port), path: url, headers: { host: new URL(url).host }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** CONNECT host:port through the proxy, then one GET inside the tunnel; returns the CONNECT status line and what came back. */
function tunnel(proxy: PolicyProxy, authority: string): Promise<{ connect: string; inside: string }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    let connect = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      if (connect === '' && received.includes('\r\n\r\n')) {
        const [head = '', rest = ''] = received.split('\r\n\r\n');
        connect = head.split('\r\n')[0] ?? '';
        received = rest;
        if (connect.includes(' 200 ')) socket.write(`GET /hello HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
      }
    });
    socket.on('end', () => resolve({ connect, inside: received }));
    socket.on('error', reject);
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  });
}

const policy = (overrides: FetchPolicy = {}) => resolveFetchPolicy(overrides);

describe('PolicyProxy (the browser tool network policy; real sockets on loopback)', () => {
  let site: LoopbackSite;

  beforeAll(async () => {
    site = await startLoopbackSite({ '/hello': serve('text/plain', 'hello from the site') });
  });

  afterAll(async () => {
    await site.close();
  });

  async function withProxy<T>(fetchPolicy: FetchPolicy, run: (proxy: PolicyProxy) => Promise<T>): Promise<T> {
    const proxy = await PolicyProxy.start(policy(fetchPolicy));
    try {
      return await run(proxy);
    } finally {
      await proxy.close();
    }
  }

  it('forwards plain HTTP to the address the checked DNS answer gave (pinned; the name is never looked up again)', async () => {
    await withProxy({ allowPrivateNetwork: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] }, async (proxy) => {
      const answer = await viaProxy(proxy, `http://site.test:${site.port}/hello`);
      expect(answer).toMatchObject({ status: 200, body: 'hello from the site' });
      expect(site.requests.at(-1)).toMatchObject({ path: '/hello', headers: expect.objectContaining({ host: `site.test:${site.port}` }) });
      expect(proxy.incidents).toEqual([]);
    });
  });

  it('tunnels CONNECT to an allowed address', async () => {
    await withProxy({ allowPrivateNetwork: true }, async (proxy) => {
      const { connect, inside } = await tunnel(proxy, `127.0.0.1:${site.port}`);
      expect(connect).toBe('HTTP/1.1 200 Connection Established');
      expect(inside).toContain('hello from the site');
    });
  });

  it('SSRF (default policy): refuses loopback and the metadata address, over plain HTTP and CONNECT, and connects to nothing', async () => {
    await withProxy({}, async (proxy) => {
      const before = site.requests.length;
      const plain = await viaProxy(proxy, `http://127.0.0.1:${site.port}/hello`);
      expect(plain.status).toBe(403);
      expect(plain.headers[BLOCKED_HEADER]).toBe('1');
      expect(plain.body).toContain('non-public address');
      expect((await tunnel(proxy, `127.0.0.1:${site.port}`)).connect).toBe('HTTP/1.1 403 Forbidden');
      expect((await tunnel(proxy, '169.254.169.254:443')).connect).toBe('HTTP/1.1 403 Forbidden');
      expect((await viaProxy(proxy, 'http://169.254.169.254/latest/meta-data/')).status).toBe(403);
      expect(site.requests.length).toBe(before);
      expect(proxy.incidents.map((i) => [i.kind, i.origin])).toEqual([
        ['blocked', `http://127.0.0.1:${site.port}`],
        ['blocked', `https://127.0.0.1:${site.port}`],
        ['blocked', 'https://169.254.169.254'],
        ['blocked', 'http://169.254.169.254'],
      ]);
    });
  });

  it('SSRF (default policy): refuses a name that resolves to a private address (checked after DNS)', async () => {
    await withProxy({ resolve: async () => [{ address: '10.1.2.3', family: 4 }] }, async (proxy) => {
      const answer = await viaProxy(proxy, 'http://printer.example.com/');
      expect(answer.status).toBe(403);
      expect(proxy.incidents).toEqual([{ kind: 'blocked', origin: 'http://printer.example.com', reason: expect.stringContaining('resolves to 10.1.2.3') }]);
    });
  });

  it('answers 502 (marked as its own failure) for a name that does not resolve and for a refused connection', async () => {
    await withProxy(
      {
        allowPrivateNetwork: true,
        resolve: async () => {
          throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
        },
      },
      async (proxy) => {
        const answer = await viaProxy(proxy, 'http://no-such-host.example/');
        expect(answer.status).toBe(502);
        expect(answer.headers[FAILED_HEADER]).toBe('1');
        expect(proxy.incidents[0]).toMatchObject({ kind: 'failed', reason: expect.stringContaining('could not be resolved (ENOTFOUND)') });
      },
    );
    const closed = await startLoopbackSite({});
    await closed.close();
    await withProxy({ allowPrivateNetwork: true }, async (proxy) => {
      expect((await viaProxy(proxy, `${closed.origin}/`)).status).toBe(502);
      expect((await tunnel(proxy, `127.0.0.1:${closed.port}`)).connect).toBe('HTTP/1.1 502 Bad Gateway');
      expect(proxy.incidents.map((i) => i.reason)).toEqual([expect.stringContaining('ECONNREFUSED'), expect.stringContaining('ECONNREFUSED')]);
    });
  });

  it('an unexpected failure inside the proxy ends that one request (502, or a closed tunnel) and is recorded, never an unhandled rejection', async () => {
    // A malformed allow-list entry makes the policy check itself throw.
    await withProxy({ allowedHosts: [42 as unknown as string] }, async (proxy) => {
      expect((await viaProxy(proxy, 'http://93.184.216.34/')).status).toBe(502);
      expect((await tunnel(proxy, '93.184.216.34:443')).connect).toBe('');
      expect(proxy.incidents.map((i) => [i.kind, i.origin])).toEqual([
        ['failed', 'http://93.184.216.34'],
        ['failed', '93.184.216.34:443'],
      ]);
    });
  });

  it('refuses requests that are not proxy requests (400)', async () => {
    await withProxy({ allowPrivateNetwork: true }, async (proxy) => {
      const direct = await new Promise<number>((resolve, reject) => {
        http.get(`${proxy.url}/hello`, (res) => resolve(res.statusCode ?? 0)).on('error', reject);
      });
      expect(direct).toBe(400);
      expect((await tunnel(proxy, 'no-port-here')).connect).toBe('HTTP/1.1 400 Bad Request');
    });
  });

  describe('with an operator outbound proxy (a fake upstream proxy on loopback speaking HTTP proxy wire format)', () => {
    let upstream: http.Server;
    let upstreamUrl: string;
    const seenUpstream: string[] = [];

    beforeAll(async () => {
      upstream = http.createServer((req, res) => {
        seenUpstream.push(`${req.method} ${req.url} auth=${req.headers['proxy-authorization'] ?? ''}`);
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`upstream served ${req.url}`);
      });
      upstream.on('connect', (req: http.IncomingMessage, socket: net.Socket) => {
        seenUpstream.push(`CONNECT ${req.url}`);
        const target = net.connect(site.port, '127.0.0.1', () => {
          socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          target.pipe(socket);
          socket.pipe(target);
        });
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      upstreamUrl = `http://user:p%40ss@127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      upstream.closeAllConnections();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    });

    it('passes plain HTTP and CONNECT on to the upstream proxy (with its credentials), without resolving names locally', async () => {
      const resolve = jest.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);
      await withProxy({ proxyUrl: upstreamUrl, resolve }, async (proxy) => {
        expect(await viaProxy(proxy, 'http://public.example/page?q=1')).toMatchObject({ status: 200, body: 'upstream served http://public.example/page?q=1' });
        const { connect, inside } = await tunnel(proxy, 'public.example:443');
        expect(connect).toBe('HTTP/1.1 200 Connection Established');
        expect(inside).toContain('hello from the site');
      });
      expect(seenUpstream).toEqual([`GET http://public.example/page?q=1 auth=Basic ${Buffer.from('user:p@ss').toString('base64')}`, 'CONNECT public.example:443']);
      expect(resolve).not.toHaveBeenCalled();
    });

    it('still refuses literal private addresses before anything reaches the upstream proxy', async () => {
      seenUpstream.length = 0;
      await withProxy({ proxyUrl: upstreamUrl }, async (proxy) => {
        expect((await viaProxy(proxy, 'http://192.168.1.1/admin')).status).toBe(403);
        expect((await tunnel(proxy, 'localhost:443')).connect).toBe('HTTP/1.1 403 Forbidden');
      });
      expect(seenUpstream).toEqual([]);
    });
  });
});

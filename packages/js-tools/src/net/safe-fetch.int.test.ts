import { afterEach, describe, expect, it } from '@jest/globals';
import type http from 'node:http';
import { Writable } from 'node:stream';
import { startInterceptingProxy, type InterceptHandler, type InterceptingProxy } from '../testing/intercepting-proxy';
import type { FetchPolicy, ResolvedAddress } from './fetch-policy';
import { failure } from './fetch-errors.test-support';
import { startLoopbackServer, type LoopbackServer, type SeenRequest } from './loopback-server.test-support';
import { buildMultipart } from './multipart';
import { createPinnedLookup, SafeFetch, type HttpMethod } from './safe-fetch';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function client(policy: FetchPolicy): SafeFetch {
  const created = new SafeFetch({ timeoutMs: 5000, ...policy });
  cleanups.push(() => created.close());
  return created;
}

async function server(handler: (req: SeenRequest, res: http.ServerResponse) => void): Promise<LoopbackServer> {
  const started = await startLoopbackServer(handler);
  cleanups.push(() => started.close());
  return started;
}

async function proxy(handler: InterceptHandler): Promise<InterceptingProxy> {
  const started = await startInterceptingProxy(handler);
  cleanups.push(() => started.close());
  return started;
}

/** A client that reaches public-looking names (api.example.com, …) only through the intercepting proxy. */
function proxied(via: InterceptingProxy, policy: FetchPolicy = {}): SafeFetch {
  return client({ proxyUrl: via.url, caCertificates: [via.caCertificate], ...policy });
}

function resolverFrom(answers: (hostname: string, call: number) => readonly ResolvedAddress[]) {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<readonly ResolvedAddress[]> => {
    calls.push(hostname);
    return answers(hostname, calls.length);
  };
  return { calls, resolve };
}

describe('SafeFetch against real sockets (B5.2)', () => {
  it.each([
    ['only a private address', [{ address: '10.0.0.5', family: 4 }]],
    [
      'a public and a private address',
      [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    ],
    [
      'an IPv6 loopback address',
      [
        { address: '2606:4700::1', family: 6 },
        { address: '::1', family: 6 },
      ],
    ],
    ['the metadata address, IPv4-mapped', [{ address: '::ffff:169.254.169.254', family: 6 }]],
    ['an address that does not parse', [{ address: 'not-an-ip', family: 4 }]],
  ] as const)('SSRF-08 blocks a public name that resolves to %s at connect time', async (_what, answers) => {
    const dns = resolverFrom(() => answers);
    const err = await failure(client({ resolve: dns.resolve }).request({ url: 'https://public.example.com/x?k=s3cret', method: 'GET' }));
    expect(err.code).toBe('forbidden_url');
    expect(err.message).toMatch(/public\.example\.com resolves to .*non-public address/);
    expect(err.message).not.toMatch(/s3cret/);
    expect(dns.calls).toEqual(['public.example.com']);
  });

  it('SSRF-09 resolves once per connection and connects to exactly the validated address (DNS rebinding)', async () => {
    // The hook itself, with the real policy: first answer public, any later answer private.
    const rebinding = resolverFrom((_host, call) => [{ address: call === 1 ? '93.184.216.34' : '10.0.0.5', family: 4 }]);
    const lookup = createPinnedLookup(rebinding.resolve, false);
    const pinned = await new Promise<unknown>((resolve, reject) => lookup('rebind.example.com', { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
    expect(pinned).toEqual([{ address: '93.184.216.34', family: 4 }]);
    expect(rebinding.calls).toEqual(['rebind.example.com']);

    // End to end: the first answer is where the listener is, later answers point elsewhere. The
    // request succeeds only if the socket went to the first answer and nothing looked up again.
    const target = await server((_req, res) => res.end('pinned'));
    const dns = resolverFrom((_host, call) => [{ address: call === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }]);
    const http = client({ allowPrivateNetwork: true, resolve: dns.resolve });
    const url = `http://rebind.example.com:${target.port}/`;
    const first = await http.request({ url, method: 'GET' });
    expect(Buffer.from(first.body).toString()).toBe('pinned');
    expect(dns.calls).toEqual(['rebind.example.com']);
    expect(target.requests.map((r) => [r.localAddress, r.headers.host])).toEqual([['127.0.0.1', `rebind.example.com:${target.port}`]]);
    expect(target.connections()).toBe(1);
  });

  it.each([
    ['a loopback literal', (admin: LoopbackServer) => `http://127.0.0.1:${admin.port}/admin`],
    ['localhost', (admin: LoopbackServer) => `http://localhost:${admin.port}/admin`],
    ['the IPv4-mapped loopback', (admin: LoopbackServer) => `http://[::ffff:127.0.0.1]:${admin.port}/admin`],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a file URL', () => 'file:///etc/passwd'],
  ])('SSRF-10 blocks a 302 to %s at the hop and never requests it', async (_what, target) => {
    const admin = await server((_req, res) => res.end('admin'));
    const via = await proxy((_req, res) => res.writeHead(302, { location: target(admin) }).end());
    const err = await failure(proxied(via).request({ url: 'https://api.example.com/start', method: 'GET' }));
    expect(err.code).toBe('forbidden_url');
    expect(err.message).toMatch(/^The redirect from https:\/\/api\.example\.com was not followed/);
    expect(via.requests.map((r) => r.url)).toEqual(['https://api.example.com/start']);
    expect(admin.requests).toEqual([]);
  });

  it('SSRF-11 follows at most 10 redirects and rejects the 11th', async () => {
    // /hops/N redirects N times, then answers 200.
    const via = await proxy((req, res) => {
      const left = Number(req.path.split('/')[2]);
      if (left === 0) res.end('done');
      else res.writeHead(left % 2 ? 302 : 307, { location: `/hops/${left - 1}` }).end();
    });
    const http = proxied(via);
    const ok = await http.request({ url: 'https://api.example.com/hops/10', method: 'GET' });
    expect(ok).toMatchObject({ status: 200, url: 'https://api.example.com/hops/0' });
    expect(via.requests).toHaveLength(11);

    via.requests.length = 0;
    const err = await failure(http.request({ url: 'https://api.example.com/hops/11', method: 'GET' }));
    expect(err.code).toBe('too_many_redirects');
    expect(err.message).toMatch(/after 10 redirects/);
    expect(via.requests).toHaveLength(11);

    const none = await failure(proxied(via, { maxRedirects: 0 }).request({ url: 'https://api.example.com/hops/1', method: 'GET' }));
    expect(none.code).toBe('too_many_redirects');
  });

  it('SSRF-12 a 307/308 that would re-send a body to another origin is refused; to the same origin it is followed', async () => {
    const via = await proxy((req, res) => {
      if (req.url === 'https://api.example.com/token') res.writeHead(307, { location: 'https://evil.example.org/collect' }).end();
      else if (req.url === 'https://api.example.com/moved') res.writeHead(308, { location: 'https://api.example.com/new' }).end();
      else res.end(`got ${req.body.toString('utf8')}`);
    });
    const client = proxied(via);
    await expect(client.request({ url: 'https://api.example.com/token', method: 'POST', body: 'client_secret=s3cret' })).rejects.toMatchObject({ code: 'forbidden_url' });
    expect(via.requests.map((r) => r.url)).toEqual(['https://api.example.com/token']);
    const same = await client.request({ url: 'https://api.example.com/moved', method: 'PUT', body: 'data' });
    expect(Buffer.from(same.body).toString('utf8')).toBe('got data');
  });

  it('SSRF-12 drops credentials on a cross-origin hop and never re-attaches them on the way back', async () => {
    const via = await proxy((req, res) => {
      const next: Record<string, string> = {
        'https://api.example.com/start': 'https://api.example.com/same-origin',
        'https://api.example.com/same-origin': 'https://files.example.org/elsewhere',
        'https://files.example.org/elsewhere': 'https://api.example.com/back',
      };
      const location = next[req.url];
      if (location) res.writeHead(302, { location }).end();
      else res.end('final');
    });
    const secrets = {
      Authorization: 'Bearer s3cret-token',
      'X-Api-Key': 'k3y',
      Cookie: 'session=c00kie',
      'X-Custom': 'custom',
      'User-Agent': 'tool/1.0',
      Accept: 'application/json',
      'Accept-Language': 'de',
    };
    const res = await proxied(via).request({ url: 'https://api.example.com/start', method: 'GET', headers: secrets });
    expect(res.url).toBe('https://api.example.com/back');
    const seen = via.requests.map((r) => ({
      url: r.url,
      authorization: r.headers['authorization'],
      key: r.headers['x-api-key'],
      cookie: r.headers['cookie'],
      custom: r.headers['x-custom'],
    }));
    expect(seen).toEqual([
      { url: 'https://api.example.com/start', authorization: 'Bearer s3cret-token', key: 'k3y', cookie: 'session=c00kie', custom: 'custom' },
      { url: 'https://api.example.com/same-origin', authorization: 'Bearer s3cret-token', key: 'k3y', cookie: 'session=c00kie', custom: 'custom' },
      { url: 'https://files.example.org/elsewhere', authorization: undefined, key: undefined, cookie: undefined, custom: undefined },
      { url: 'https://api.example.com/back', authorization: undefined, key: undefined, cookie: undefined, custom: undefined },
    ]);
    for (const later of via.requests.slice(2)) {
      expect(later.headers).toMatchObject({ 'user-agent': 'tool/1.0', accept: 'application/json', 'accept-language': 'de' });
    }
  });

  it('SSRF-13 stops an endless body at the cap and a slow drip at the timeout, closing the connection', async () => {
    const closed: string[] = [];
    const target = await server((req, res) => {
      res.on('close', () => closed.push(req.url));
      if (req.url === '/huge') {
        // Declares 500 MiB: refused before a byte is read.
        res.writeHead(200, { 'content-length': String(500 * 1024 * 1024) });
        res.write(Buffer.alloc(1024));
        return;
      }
      if (req.url === '/endless') {
        const chunk = Buffer.alloc(64 * 1024, 120);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('.')), 20);
      res.on('close', () => clearInterval(drip));
    });
    const http = client({ allowPrivateNetwork: true, maxResponseBytes: 1024 * 1024, timeoutMs: 400 });

    const huge = await failure(http.request({ url: `${target.origin}/huge`, method: 'GET' }));
    expect(huge.code).toBe('response_too_large');
    expect(huge.details).toMatchObject({ limit: 1024 * 1024, declared: 500 * 1024 * 1024 });

    // Had the cap not stopped it, the 400 ms timeout would have (and the code would say so).
    const endless = await failure(http.request({ url: `${target.origin}/endless`, method: 'GET' }));
    expect(endless.code).toBe('response_too_large');
    expect(endless.message).toMatch(/larger than the 1048576-byte limit/);

    // The drip never ends, so only the overall timeout can end this request (no wall-clock bound
    // asserted here: tests hold no timing thresholds; the code and message say which limit fired).
    const drip = await failure(http.request({ url: `${target.origin}/drip`, method: 'GET' }));
    expect(drip.code).toBe('timeout');
    expect(drip.message).toMatch(/did not finish within 400 ms/);

    // Each server-side response saw its connection go away: the streams were aborted, not drained.
    await waitFor(() => closed.length === 3);
    expect(closed.sort()).toEqual(['/drip', '/endless', '/huge']);
  });

  it('maps the caller signal to aborted and a refused connection to network_error', async () => {
    const target = await server(() => undefined); // never answers
    const http = client({ allowPrivateNetwork: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = await failure(http.request({ url: target.origin, method: 'GET' }, { signal: controller.signal }));
    expect(aborted.code).toBe('aborted');

    const closedPort = await server(() => undefined);
    await closedPort.close();
    const refused = await failure(http.request({ url: closedPort.origin, method: 'GET' }));
    expect(refused.code).toBe('network_error');
    expect(refused.message).toMatch(/ECONNREFUSED/);
  });
});

describe('SafeFetch requests and responses', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const)('sends %s with its body and reads the answer', async (method: HttpMethod) => {
    const target = await server((req, res) => {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.setHeader('x-method', req.method);
      res.end(`${req.method} ${req.body.toString()}`);
    });
    const withBody = method !== 'GET' && method !== 'HEAD';
    const res = await client({ allowPrivateNetwork: true }).request({
      url: `${target.origin}/items?id=7#fragment`,
      method,
      headers: { 'Content-Type': 'text/plain', Host: 'evil.example', 'X-Trace': 'one' },
      ...(withBody ? { body: `payload for ${method}` } : {}),
    });
    const seen = target.requests[0];
    expect(seen).toMatchObject({ method, url: '/items?id=7', body: Buffer.from(withBody ? `payload for ${method}` : '') });
    expect(seen?.headers).toMatchObject({ host: `127.0.0.1:${target.port}`, 'x-trace': 'one', 'user-agent': 'OneClaw' });
    expect(res).toMatchObject({ status: 200, statusText: 'OK', url: `${target.origin}/items?id=7` });
    expect(res.headers).toMatchObject({ 'x-method': method, 'set-cookie': 'a=1, b=2' });
    const expectedBody = method === 'HEAD' ? '' : `${method} ${withBody ? `payload for ${method}` : ''}`;
    expect(Buffer.from(res.body).toString()).toBe(expectedBody);
    expect(res.bytes).toBe(Buffer.byteLength(expectedBody));
  });

  it('turns POST into GET on 303 and keeps method and body on 307', async () => {
    const target = await server((req, res) => {
      if (req.url === '/see-other') res.writeHead(303, { location: '/result' }).end();
      else if (req.url === '/temporary') res.writeHead(307, { location: '/result' }).end();
      else res.end(`${req.method}:${req.body.toString()}:${req.headers['content-type'] ?? '-'}`);
    });
    const http = client({ allowPrivateNetwork: true });
    const post = { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } } as const;
    const seeOther = await http.request({ url: `${target.origin}/see-other`, ...post });
    expect(Buffer.from(seeOther.body).toString()).toBe('GET::-');
    const temporary = await http.request({ url: `${target.origin}/temporary`, ...post });
    expect(Buffer.from(temporary.body).toString()).toBe('POST:{"a":1}:application/json');
  });

  it('sends a multipart/related upload that parses back into its parts', async () => {
    const target = await server((_req, res) => res.end());
    const media = Uint8Array.from([0, 1, 2, 13, 10, 45, 45, 255]);
    const built = buildMultipart([
      { contentType: 'application/json; charset=UTF-8', body: '{"name":"report.bin"}' },
      { contentType: 'application/octet-stream', body: media },
    ]);
    await client({ allowPrivateNetwork: true }).request({
      url: `${target.origin}/upload/drive/v3/files?uploadType=multipart`,
      method: 'POST',
      headers: { 'content-type': built.contentType },
      body: built.body,
    });
    const seen = target.requests[0];
    const boundary = /^multipart\/related; boundary=([^;]+)$/.exec(String(seen?.headers['content-type']))?.[1] ?? '';
    const parts = parseMultipart(seen?.body ?? Buffer.alloc(0), boundary);
    expect(parts.map((p) => p.headers)).toEqual([{ 'content-type': 'application/json; charset=UTF-8' }, { 'content-type': 'application/octet-stream' }]);
    expect(parts[0]?.body.toString()).toBe('{"name":"report.bin"}');
    expect([...(parts[1]?.body ?? [])]).toEqual([...media]);
  });

  it('streams a download to a destination, counts its bytes and enforces maxDownloadBytes', async () => {
    const payload = Buffer.alloc(300 * 1024, 7);
    const target = await server((_req, res) => res.end(payload));
    // maxResponseBytes is below the payload: streaming uses the download limit instead.
    const http = client({ allowPrivateNetwork: true, maxResponseBytes: 1024, maxDownloadBytes: 512 * 1024 });
    const sink = new CollectingSink();
    const res = await http.request({ url: `${target.origin}/file`, method: 'GET' }, { destination: sink });
    expect(res.bytes).toBe(payload.length);
    expect(res.body).toHaveLength(0);
    expect(sink.writableFinished).toBe(true);
    expect(Buffer.concat(sink.chunks).equals(payload)).toBe(true);

    const small = client({ allowPrivateNetwork: true, maxDownloadBytes: 100 * 1024 });
    const capped = new CollectingSink();
    const err = await failure(small.request({ url: `${target.origin}/file`, method: 'GET' }, { destination: capped }));
    expect(err.code).toBe('response_too_large');
    expect(capped.writableEnded).toBe(false);
    expect(Buffer.concat(capped.chunks).length).toBeLessThanOrEqual(100 * 1024);
  });

  it('a per-request maxBytes replaces the policy cap of a buffered body, upwards or downwards', async () => {
    const payload = Buffer.alloc(300 * 1024, 7);
    const target = await server((_req, res) => res.end(payload));
    const http = client({ allowPrivateNetwork: true, maxResponseBytes: 1024 });
    const res = await http.request({ url: `${target.origin}/file`, method: 'GET' }, { maxBytes: 512 * 1024 });
    expect(Buffer.from(res.body).equals(payload)).toBe(true);
    const err = await failure(http.request({ url: `${target.origin}/file`, method: 'GET' }, { maxBytes: 100 * 1024 }));
    expect(err.code).toBe('response_too_large');
    expect(err.details).toMatchObject({ limit: 100 * 1024 });
  });

  it('respects backpressure from a slow destination', async () => {
    const payload = Buffer.alloc(256 * 1024, 1);
    const target = await server((_req, res) => res.end(payload));
    const sink = new CollectingSink({ highWaterMark: 1024, delayMs: 1 });
    const res = await client({ allowPrivateNetwork: true }).request({ url: target.origin, method: 'GET' }, { destination: sink });
    expect(res.bytes).toBe(payload.length);
    expect(Buffer.concat(sink.chunks).length).toBe(payload.length);
  });
});

class CollectingSink extends Writable {
  readonly chunks: Buffer[] = [];

  constructor(private readonly options: { highWaterMark?: number; delayMs?: number } = {}) {
    super({ highWaterMark: options.highWaterMark ?? 16 * 1024 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    if (this.options.delayMs) setTimeout(callback, this.options.delayMs);
    else callback();
  }
}

/** A strict RFC 2046 reader: CRLF everywhere, a closing delimiter, no preamble or epilogue. */
function parseMultipart(body: Buffer, boundary: string): { headers: Record<string, string>; body: Buffer }[] {
  expect(boundary).toMatch(/^[0-9A-Za-z'()+_,\-./:=?]{1,70}$/);
  const delimiter = Buffer.from(`--${boundary}`);
  expect(body.subarray(0, delimiter.length + 2).equals(Buffer.concat([delimiter, Buffer.from('\r\n')]))).toBe(true);
  expect(body.subarray(body.length - delimiter.length - 4).toString()).toBe(`--${boundary}--\r\n`);
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  let at = delimiter.length + 2;
  for (;;) {
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), at);
    expect(next).toBeGreaterThan(0);
    const raw = body.subarray(at, next);
    const split = raw.indexOf('\r\n\r\n');
    const head = raw.subarray(0, split).toString();
    const headers = Object.fromEntries(
      head.split('\r\n').map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    parts.push({ headers, body: raw.subarray(split + 4) });
    at = next + 2 + delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts;
    expect(body.subarray(at, at + 2).toString()).toBe('\r\n');
    at += 2;
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 1000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

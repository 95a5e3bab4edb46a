import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { FetchError, SafeFetch } from '../net/safe-fetch';
import { INTERCEPTING_PROXY_FIXTURES, startInterceptingProxy, type InterceptingProxy } from './intercepting-proxy';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function proxy(handler: Parameters<typeof startInterceptingProxy>[0]): Promise<InterceptingProxy> {
  const started = await startInterceptingProxy(handler);
  cleanups.push(() => started.close());
  return started;
}

function client(...args: ConstructorParameters<typeof SafeFetch>): SafeFetch {
  const created = new SafeFetch(...args);
  cleanups.push(() => created.close());
  return created;
}

describe('startInterceptingProxy', () => {
  it('finds its fixtures from src/ and from the compiled dist/ folder alike', () => {
    const packageRoot = path.resolve(__dirname, '../..');
    expect(INTERCEPTING_PROXY_FIXTURES).toBe(path.join(packageRoot, 'src/testing/fixtures'));
    expect(path.resolve(packageRoot, 'dist/testing', '../../src/testing/fixtures')).toBe(INTERCEPTING_PROXY_FIXTURES);
    for (const file of ['test-ca.cert.pem', 'test-leaf.cert.pem', 'test-leaf.key.pem']) {
      expect(fs.existsSync(path.join(INTERCEPTING_PROXY_FIXTURES, file))).toBe(true);
    }
  });

  it('serves https://www.googleapis.com through CONNECT when the client trusts the fixture CA', async () => {
    const via = await proxy((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ files: [], q: req.query.get('q') }));
    });
    const res = await client({ proxyUrl: via.url, caCertificates: [via.caCertificate] }).request({
      url: 'https://www.googleapis.com/drive/v3/files?q=name%3D%27x%27&pageSize=10',
      method: 'GET',
      headers: { Authorization: 'Bearer ya29.test' },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(Buffer.from(res.body).toString())).toEqual({ files: [], q: "name='x'" });
    expect(via.requests).toHaveLength(1);
    const seen = via.requests[0];
    expect(seen).toMatchObject({
      method: 'GET',
      url: 'https://www.googleapis.com/drive/v3/files?q=name%3D%27x%27&pageSize=10',
      host: 'www.googleapis.com',
      path: '/drive/v3/files',
    });
    expect(seen?.query.get('pageSize')).toBe('10');
    expect(seen?.headers['authorization']).toBe('Bearer ya29.test');
    expect(seen?.headers['host']).toBe('www.googleapis.com');
  });

  it('is rejected with a certificate error when the client does not trust the fixture CA', async () => {
    const via = await proxy((_req, res) => res.end('must not be reached'));
    const err = await client({ proxyUrl: via.url })
      .request({ url: 'https://www.googleapis.com/drive/v3/files', method: 'GET' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).code).toBe('network_error');
    expect((err as FetchError).message).toMatch(/certificate/i);
    expect((err as FetchError).message).toMatch(/caCertificates/);
    expect(via.requests).toEqual([]);
  });

  it('hands POST bodies and absolute-form http:// requests to the handler', async () => {
    const via = await proxy((req, res) => res.end(`${req.method} ${req.url} ${req.body.toString()}`));
    const http = client({ proxyUrl: via.url, caCertificates: [via.caCertificate] });
    const post = await http.request({ url: 'https://api.example.com/v1/items', method: 'POST', body: '{"a":1}' });
    expect(Buffer.from(post.body).toString()).toBe('POST https://api.example.com/v1/items {"a":1}');
    const plain = await http.request({ url: 'http://example.org/page?x=1', method: 'GET' });
    expect(Buffer.from(plain.body).toString()).toBe('GET http://example.org/page?x=1 ');
    expect(via.requests.map((r) => [r.method, r.host, r.path])).toEqual([
      ['POST', 'api.example.com', '/v1/items'],
      ['GET', 'example.org', '/page'],
    ]);
  });

  it('speaks the CONNECT wire format to a raw TLS client, and answers 500 when the handler throws', async () => {
    const via = await proxy((req) => {
      if (req.path === '/boom') throw new Error('handler failed');
    });
    const port = Number(new URL(via.url).port);
    const socket = net.connect(port, '127.0.0.1');
    cleanups.push(async () => void socket.destroy());
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write('CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n');
    const established = await new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
    expect(established).toMatch(/^HTTP\/1\.1 200 /);
    const secure = tls.connect({ socket, servername: 'api.example.com', ca: via.caCertificate });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    expect(secure.authorized).toBe(true);
    const answer = await new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      secure.on('data', (d: Buffer) => chunks.push(d));
      secure.on('end', () => resolve(Buffer.concat(chunks).toString()));
      secure.write('GET /boom HTTP/1.1\r\nHost: api.example.com\r\nConnection: close\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 500 /);
    expect(answer).toMatch(/handler failed/);
    expect(via.requests.map((r) => r.url)).toEqual(['https://api.example.com/boom']);
  });

  it('serves a plain CONNECT tunnel to port 80 without TLS', async () => {
    const via = await proxy((req, res) => res.end(`plain ${req.url}`));
    const socket = net.connect(Number(new URL(via.url).port), '127.0.0.1');
    cleanups.push(async () => void socket.destroy());
    const received = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString();
        if (text === 'HTTP/1.1 200 Connection Established\r\n\r\n') {
          socket.write('GET /x?y=1 HTTP/1.1\r\nHost: example.org\r\nConnection: close\r\n\r\n');
        }
      });
      socket.on('close', () => resolve(text));
      socket.write('CONNECT example.org:80 HTTP/1.1\r\nHost: example.org:80\r\n\r\n');
    });
    expect(received).toMatch(/HTTP\/1\.1 200 OK[\s\S]*\r\n\r\nplain http:\/\/example\.org\/x\?y=1$/);
    expect(via.requests.map((r) => r.url)).toEqual(['http://example.org/x?y=1']);
  });

  it('refuses origin-form requests that are not proxy requests', async () => {
    const via = await proxy((_req, res) => res.end('no'));
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get(`${via.url}/not-a-proxy-request`, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
        .on('error', reject);
    });
    expect(status).toBe(400);
    expect(via.requests).toEqual([]);
  });
});

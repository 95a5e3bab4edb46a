import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from './api-error';
import { ApiClient, type StreamEvent } from './client';

// A loopback HTTP server answering like the OneClaw API does (problem+json errors, SSE turns),
// so the client's parsing runs against real sockets and chunking.
let server: Server;
let base: string;
const seen: { method: string; url: string; auth: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      if (req.url === '/api/ok') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"sessions":[]}');
      if (req.url === '/api/none') return void res.writeHead(204).end();
      if (req.url === '/api/missing')
        return void res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"code":"session_not_found","detail":"No session x. Start one first."}');
      if (req.url === '/api/401') return void res.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"code":"unauthorized","detail":"Send the token."}');
      if (req.url === '/api/html') return void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
      if (req.url === '/api/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // Split an event across writes, as a proxy or slow network does.
        res.write('event: text_delta\ndata: {"text":"Hel');
        setTimeout(() => {
          res.write('lo"}\n\nevent: done\ndata: {"reason":"completed"}\n\n');
          res.end();
        }, 20);
        return;
      }
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('S6 API client (loopback server speaking the API formats)', () => {
  const client = (onUnauthorized = () => {}) => new ApiClient({ apiBase: base, token: 'tok-0123456789abcdef' }, onUnauthorized);

  test('sends the bearer token and JSON, and parses JSON answers; 204 gives undefined', async () => {
    await expect(client().post('/api/ok', { a: 1 })).resolves.toEqual({ sessions: [] });
    const last = seen[seen.length - 1]!;
    expect(last).toMatchObject({ method: 'POST', url: '/api/ok', auth: 'Bearer tok-0123456789abcdef', body: '{"a":1}' });
    await expect(client().delete('/api/none')).resolves.toBeUndefined();
  });

  test('a problem answer becomes an ApiError with its code and detail', async () => {
    const error = await client()
      .get('/api/missing')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'session_not_found', detail: 'No session x. Start one first.' });
  });

  test('a non-JSON error answer still gives a readable ApiError', async () => {
    await expect(client().get('/api/html')).rejects.toMatchObject({ status: 502, code: 'http_502' });
  });

  test('401 calls onUnauthorized (the app asks for the token again)', async () => {
    let calls = 0;
    await expect(client(() => calls++).get('/api/401')).rejects.toMatchObject({ code: 'unauthorized' });
    expect(calls).toBe(1);
  });

  test('an unreachable server is a network_error that says what to check', async () => {
    const offline = new ApiClient({ apiBase: 'http://127.0.0.1:9', token: 't' });
    await expect(offline.get('/api/ok')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  test('stream() parses SSE events split across chunks, with JSON data', async () => {
    const events: StreamEvent[] = [];
    await client().stream('/api/stream', { text: 'hi' }, (e) => events.push(e));
    expect(events).toEqual([
      { event: 'text_delta', data: { text: 'Hello' } },
      { event: 'done', data: { reason: 'completed' } },
    ]);
    expect(seen[seen.length - 1]!.body).toBe('{"text":"hi"}');
  });
});

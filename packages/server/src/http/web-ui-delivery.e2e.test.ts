import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { openLiveSse, streamedText } from '../testing/live-sse';
import { startTestServer, type TestServer } from '../testing/test-server';

/**
 * How the built web UI goes out: compressed as Accept-Encoding asks, cached for a year when the
 * file name holds a content hash, rechecked when it is index.html; and the turn stream (SSE) is
 * never held back by the compressor. Raw node:http requests, because fetch decodes bodies itself
 * and would hide which encoding was sent.
 */
const MODEL_KEY = 'sk-ant-test-model-key-delivery';
const ASSET = 'assets/index-3f9a1c2b.js';

let root: string;
let webDir: string;
let model: FakeModelServer;
let server: TestServer;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-web-delivery-'));
  // The folder itself sits under one named assets: only the path inside it may decide caching.
  webDir = path.join(root, 'assets', 'web');
  mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  writeFileSync(path.join(webDir, 'assets', 'notes.txt'), 'not hashed');
  // Larger than the compressor's 1 KB threshold, and repetitive, as real bundles are.
  const script = Array.from({ length: 400 }, (_, i) => `export const line${i} = "the web UI bundle, line ${i}";`).join('\n');
  writeFileSync(path.join(webDir, ASSET), script);
  const page = `<!doctype html><title>OneClaw test UI</title><script type="module" src="/${ASSET}"></script>${'<p>filler paragraph for size</p>'.repeat(80)}`;
  writeFileSync(path.join(webDir, 'index.html'), page);
  model = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
  server = await startTestServer({
    env: { ONECLAW_WEB_DIR: webDir, ONECLAW_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: model.url },
  });
});

afterEach(() => {
  // A reply a failed test left queued must not answer the next test.
  model.script([]);
});

afterAll(async () => {
  await server.close();
  await model.close();
  rmSync(root, { recursive: true, force: true });
});

interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

function rawGet(route: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}${route}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
}

const fileBytes = (name: string) => readFileSync(path.join(webDir, name));

describe('web UI delivery', () => {
  it.each([
    ['/', 'index.html'],
    [`/${ASSET}`, ASSET],
  ])('%s is sent as brotli or gzip when accepted, both decoding to the file, and as the file itself when not', async (route, file) => {
    const original = fileBytes(file);

    const br = await rawGet(route, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(original.length);
    expect(zlib.brotliDecompressSync(br.body).equals(original)).toBe(true);

    const gzip = await rawGet(route, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(gzip.body).equals(original)).toBe(true);

    const plain = await rawGet(route);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
    const refused = await rawGet(route, { 'accept-encoding': 'identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(original)).toBe(true);
  });

  it('a hashed asset is cached for a year as immutable; index.html and an unhashed file are rechecked on every load (no-cache), compressed or not, wherever the web folder is', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const asset = await rawGet(`/${ASSET}`, { 'accept-encoding': encoding });
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['content-type']).toMatch(/javascript/);
      for (const route of ['/', '/index.html', '/assets/notes.txt']) {
        const page = await rawGet(route, { 'accept-encoding': encoding });
        expect(page.headers['cache-control']).toBe('no-cache');
      }
    }
  });

  it('API answers stay uncompressed even when the client accepts brotli and gzip', async () => {
    const answer = await rawGet('/api/tools', { authorization: `Bearer ${server.config.apiToken}`, 'accept-encoding': 'gzip, deflate, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    // Over the compressor's 1 KB threshold, so only the /api rule keeps it plain.
    expect(answer.body.length).toBeGreaterThan(1024);
    expect(Array.isArray((JSON.parse(answer.body.toString('utf8')) as { sources: unknown[] }).sources)).toBe(true);
  });

  it('the turn stream is not compressed and arrives while the turn runs, for a client that accepts brotli and gzip', async () => {
    await server.api('POST', '/api/sessions', { sessionId: 'live' });
    model.enqueue(fakeReply.hang('Still streaming, '));
    const live = await openLiveSse(server, '/api/sessions/live/messages', { text: 'hi' }, { 'accept-encoding': 'gzip, deflate, br' });
    expect(live.headers.get('content-encoding')).toBeNull();
    // The model has not finished (it never will): text that arrives now was not buffered to the end.
    await live.until((events) => streamedText(events) === 'Still streaming, ');
    expect((await server.api('POST', '/api/sessions/live/cancel')).body).toEqual({ cancelled: true });
    expect((await live.end()).map((e) => e.event)).toContain('turn_finished');
  });
});

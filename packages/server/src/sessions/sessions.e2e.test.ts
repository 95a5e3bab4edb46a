import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApp } from '../create-app';
import { loadServerConfig, type ServerConfig } from '../server-config';

process.env.ONECLAW_LOG = 'silent';

interface Booted {
  app: NestExpressApplication;
  url: string;
}

async function boot(config: ServerConfig): Promise<Booted> {
  const app = await createApp({ config });
  await app.listen(0, '127.0.0.1');
  return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}

async function call(base: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(base + route, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

describe('session API over real HTTP on the embedded SQLite store', () => {
  let dataDir: string;
  let server: Booted;
  const api = (method: string, route: string, body?: unknown, headers?: Record<string, string>) => call(server.url, method, route, body, headers);

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-e2e-'));
    server = await boot(loadServerConfig({ ONECLAW_DATA_DIR: dataDir, ONECLAW_BODY_LIMIT_BYTES: '65536' }));
  });
  afterEach(async () => {
    await server.app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('GET /health answers ok without echoing configuration', async () => {
    const res = await api('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', store: 'ok' });
  });

  it('starts a session, records messages, clears it, and keeps the history as events', async () => {
    const started = await api('POST', '/api/sessions', { sessionId: 'alpha', agentId: 'default' });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ sessionId: 'alpha', agentId: 'default', revision: 0, messages: [], loadedGroups: [] });

    const sent = await api('POST', '/api/sessions/alpha/messages', { text: 'what time is it?' });
    expect(sent.status).toBe(201);
    expect(sent.body.messages).toEqual([expect.objectContaining({ role: 'user', text: 'what time is it?' })]);

    expect((await api('GET', '/api/sessions/alpha')).body.messages).toHaveLength(1);
    const cleared = await api('POST', '/api/sessions/alpha/clear');
    expect(cleared.status).toBe(200);
    expect(cleared.body.messages).toEqual([]);

    const events = await api('GET', '/api/sessions/alpha/events');
    expect(events.body.events.map((e: { type: string; revision: number }) => [e.type, e.revision])).toEqual([
      ['SessionStarted', 0],
      ['MessageSent', 1],
      ['SessionCleared', 2],
    ]);
  });

  it('a retried request with the same Idempotency-Key is recorded once', async () => {
    await api('POST', '/api/sessions', { sessionId: 'idem' });
    const first = await api('POST', '/api/sessions/idem/messages', { text: 'once' }, { 'idempotency-key': 'k-1' });
    const retry = await api('POST', '/api/sessions/idem/messages', { text: 'once' }, { 'idempotency-key': 'k-1' });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    const messages = (await api('GET', '/api/sessions/idem')).body.messages;
    expect(messages.map((m: { text: string }) => m.text)).toEqual(['once']);
    // The same key with different content is refused, not silently merged.
    const reused = await api('POST', '/api/sessions/idem/messages', { text: 'other' }, { 'idempotency-key': 'k-1' });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('idempotency_conflict');
  });

  it('bad input gets problem+json with a stable code and loses nothing already recorded', async () => {
    await api('POST', '/api/sessions', { sessionId: 'keep' });
    await api('POST', '/api/sessions/keep/messages', { text: 'first' });

    const malformed = await api('POST', '/api/sessions/keep/messages', '{"text": ');
    expect(malformed.status).toBe(400);
    expect(malformed.type).toContain('application/problem+json');
    expect(malformed.body).toMatchObject({ code: 'invalid_json', status: 400 });

    const notText = await api('POST', '/api/sessions/keep/messages', { text: 42 });
    expect(notText.status).toBe(400);
    expect(notText.body).toMatchObject({ code: 'invalid_command', detail: 'text must be a string.' });

    const tooBig = await api('POST', '/api/sessions/keep/messages', { text: 'x'.repeat(70_000) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe('payload_too_large');

    const missing = await api('POST', '/api/sessions/nobody/messages', { text: 'hi' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('session_not_found');

    const badId = await api('GET', `/api/sessions/${'x'.repeat(65)}`);
    expect(badId.status).toBe(400);
    expect(badId.body.code).toBe('invalid_session_id');

    const twice = await api('POST', '/api/sessions', { sessionId: 'keep' });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('session_already_started');

    const noRoute = await api('GET', '/api/nothing-here');
    expect(noRoute.status).toBe(404);
    expect(noRoute.body.code).toBe('not_found');

    const events = (await api('GET', '/api/sessions/keep/events')).body.events;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['SessionStarted', 'MessageSent']);
    expect((await api('GET', '/health')).status).toBe(200);
  });

  it('S5 concurrent sends to one session: every accepted message is recorded once, none interleaved or lost', async () => {
    await api('POST', '/api/sessions', { sessionId: 'busy' });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => api('POST', '/api/sessions/busy/messages', { text: `m${i}` })));
    const accepted = results.filter((r) => r.status === 201).length;
    for (const r of results.filter((r) => r.status !== 201)) expect(r.body.code).toBe('stream_revision_conflict');
    const events = (await api('GET', '/api/sessions/busy/events')).body.events as { revision: number; data: { text?: string } }[];
    expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
    const texts = events.slice(1).map((e) => e.data.text);
    expect(texts).toHaveLength(accepted);
    expect(new Set(texts).size).toBe(accepted);
    expect(accepted).toBeGreaterThan(0);
  });

  it('P1 the session survives a server restart on the same data directory', async () => {
    await api('POST', '/api/sessions', { sessionId: 'durable' });
    await api('POST', '/api/sessions/durable/messages', { text: 'remember me' });
    await server.app.close();
    server = await boot(loadServerConfig({ ONECLAW_DATA_DIR: dataDir }));
    const view = await api('GET', '/api/sessions/durable');
    expect(view.status).toBe(200);
    expect(view.body.messages.map((m: { text: string }) => m.text)).toEqual(['remember me']);
    expect(view.body.revision).toBe(1);
  });
});

describe('server start-up', () => {
  it('SQL-09 refuses to start on a corrupt store with storage_corrupt, leaving the file as it was', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-corrupt-'));
    const file = path.join(dir, 'events.db');
    const junk = Buffer.from('SQLite format 3\u0000'.padEnd(8192, '#'));
    writeFileSync(file, junk);
    try {
      await expect(createApp({ config: loadServerConfig({ ONECLAW_DATA_DIR: dir }) })).rejects.toMatchObject({ code: 'storage_corrupt' });
      expect(readFileSync(file).equals(junk)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('server config', () => {
  it('binds to 127.0.0.1 by default and refuses a bad PORT with a message naming it', () => {
    expect(loadServerConfig({}).host).toBe('127.0.0.1');
    expect(() => loadServerConfig({ PORT: 'eighty' })).toThrow('PORT=eighty is not valid');
  });
});

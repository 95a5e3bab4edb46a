import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionEvents } from '@oneclaw/api-contract';
import { decide, deterministicIds, evolve, initialSessionState, sessionStreamId, type SessionCommand, type SessionEvent, type SessionState } from '@oneclaw/core';
import { testCatalogue } from '@oneclaw/core/testing';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import type { Runtime } from '../composition';
import { startTestServer, type TestServer } from '../testing/test-server';
import { RUNTIME } from '../tokens';

const EVENTS = 1201; // StartSession and 400 finished turns (an open one would be closed at start)

/** Writes a long session straight into the data directory's store, as a server would have. */
async function seed(dataDir: string): Promise<void> {
  const store = SqliteEventStore.open(path.join(dataDir, 'events.db'));
  const history: SessionEvent[] = [];
  let state: SessionState = initialSessionState;
  let n = 0;
  const record = (command: SessionCommand): void => {
    const events = decide(command, state, { now: () => new Date(Date.UTC(2026, 0, 1) + n * 1000), newId: deterministicIds(`c${n++}`), catalogue: testCatalogue() });
    for (const event of events) state = evolve(state, event);
    history.push(...events);
  };
  record({ type: 'StartSession', sessionId: 'long', agentId: 'default' });
  for (let t = 0; history.length < EVENTS; t++) {
    record({ type: 'RecordUserMessage', messageId: `u${t}`, text: `question ${t}` });
    record({ type: 'RecordAssistantMessage', messageId: `a${t}`, text: `answer ${t}`, toolCalls: [] });
    record({ type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } });
  }
  await store.append(sessionStreamId('long'), history, { expectedRevision: 'no_stream' });
  await store.close();
}

describe('GET /api/sessions/:id/events is paged (F4; real server, SQLite, HTTP)', () => {
  let server: TestServer;
  let dataDir: string;
  const page = async (query: string): Promise<SessionEvents> => {
    const res = await server.api('GET', `/api/sessions/long/events${query}`);
    expect(res.status).toBe(200);
    return res.body as SessionEvents;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-paging-'));
    await seed(dataDir);
    server = await startTestServer({ dataDir, env: { ONECLAW_SNAPSHOT_EVERY: '100' } });
  });
  afterAll(async () => {
    await server?.close();
    // The server removes only a data folder it made itself.
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('F4 answers 500 events by default with the next page revision; following nextRevision gives every event once, in order, and null at the end', async () => {
    const first = await page('');
    expect(first.events).toHaveLength(500);
    expect(first.nextRevision).toBe(500);
    const all = [...first.events];
    for (let from = first.nextRevision; from !== null;) {
      const next = await page(`?fromRevision=${from}&limit=400`);
      all.push(...next.events);
      from = next.nextRevision;
    }
    expect(all.map((e) => e.revision)).toEqual(Array.from({ length: EVENTS }, (_, i) => i));
  });

  it('a page that ends exactly at the last event says null; past the end is an empty page, not a 404', async () => {
    expect(await page(`?fromRevision=${EVENTS - 1000}&limit=1000`)).toMatchObject({ nextRevision: null });
    expect((await page(`?fromRevision=${EVENTS - 1000}&limit=1000`)).events).toHaveLength(1000);
    expect(await page(`?fromRevision=${EVENTS - 1001}&limit=1000`)).toMatchObject({ nextRevision: EVENTS - 1 });
    expect(await page(`?fromRevision=${EVENTS + 5}`)).toEqual({ sessionId: 'long', events: [], nextRevision: null });
  });

  it('a session that does not exist is 404 session_not_found on any page', async () => {
    for (const query of ['', '?fromRevision=5']) {
      expect(await server.api('GET', `/api/sessions/nobody/events${query}`)).toMatchObject({ status: 404, body: { code: 'session_not_found' } });
    }
  });

  it.each([
    ['fromRevision=-1', 'invalid_from_revision'],
    ['fromRevision=abc', 'invalid_from_revision'],
    ['fromRevision=1.5', 'invalid_from_revision'],
    ['fromRevision=1&fromRevision=2', 'invalid_from_revision'],
    ['limit=0', 'invalid_limit'],
    ['limit=1001', 'invalid_limit'],
    ['limit=ten', 'invalid_limit'],
    ['limit=1e3', 'invalid_limit'],
  ])('?%s is a 400 %s that says what to send', async (query, code) => {
    const res = await server.api('GET', `/api/sessions/long/events?${query}`);
    expect(res).toMatchObject({ status: 400, body: { code } });
    expect(res.body.detail).toMatch(/whole number/);
  });

  it('F4 SQL-04 the server rebuilds the session snapshot on its first load and, restarted, loads the session from it', async () => {
    const runtime = (s: TestServer): Runtime => s.app.get<symbol, Runtime>(RUNTIME);
    const view = (await server.api('GET', '/api/sessions/long')).body;
    expect(view.revision).toBe(EVENTS - 1);
    await runtime(server).checkpoints?.idle();
    expect(runtime(server).checkpoints?.stats).toMatchObject({ replayed: 1, written: 1, failed: 0 });
    await server.close({ keepData: true });

    server = await startTestServer({ dataDir, env: { ONECLAW_SNAPSHOT_EVERY: '100' } });
    expect((await server.api('GET', '/api/sessions/long')).body).toEqual(view);
    expect(runtime(server).checkpoints?.stats).toMatchObject({ fromSnapshot: 1, replayed: 0, ignored: 0 });
  });
});

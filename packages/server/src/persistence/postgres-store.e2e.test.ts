import { afterEach, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SESSION_PROJECTION, SESSION_PROJECTION_VERSION, sessionStreamId, type RecordedEvent, type StoredSnapshot } from '@oneclaw/core';
import { PostgresEventStore } from '@oneclaw/event-store-postgres';
import { describeWithPostgres } from '@oneclaw/event-store-postgres/testing';
import { fakeReply, startFakeModelServer, type FakeModelServer } from '@oneclaw/model-providers/testing';
import { callServer, serverProcessEnv, ServerProcessGroup } from '../testing/server-process';

// Real server processes (main.ts from source) on a real PostgreSQL (a throwaway cluster of this
// file's own, Debian's binaries), with a FAKE Anthropic model. Each start compiles the server
// (swc): the timeouts allow for it.
const TOKEN = 'postgres-e2e-token-0123456789';
const KEY = 'sk-ant-postgres-e2e-key-000';

describeWithPostgres('a server process on PostgreSQL (ONECLAW_POSTGRES_URL, FAKE Anthropic model)', (cluster) => {
  const servers = new ServerProcessGroup();
  afterEach(() => servers.killAll());

  async function setUp() {
    const fake: FakeModelServer = await startFakeModelServer('anthropic', { apiKey: KEY });
    servers.also(() => fake.close());
    const databaseUrl = await cluster().createDatabase();
    const start = async (replicaId: string, more: Record<string, string> = {}) => {
      // A data directory per process: with PostgreSQL it holds no events, so a new one proves it.
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-pg-e2e-'));
      servers.also(() => rmSync(dataDir, { recursive: true, force: true }));
      const server = servers.start({
        ...serverProcessEnv({ dataDir, token: TOKEN, anthropic: { key: KEY, url: fake.url } }),
        ONECLAW_REPLICA_ID: replicaId,
        ONECLAW_POSTGRES_URL: databaseUrl,
        ...more,
      });
      return { server, dataDir, url: await server.url() };
    };
    const api = (url: string, method: string, route: string, body?: unknown) => callServer(url, TOKEN, method, route, body);
    return { fake, start, api, databaseUrl };
  }

  it('PG-20 a turn that loads a tool group is stored in PostgreSQL; a restarted server (new process, new data dir) shows the session, its group and messages, lists it, and runs the next turn', async () => {
    const { fake, start, api } = await setUp();
    const first = await start('replica-a');
    expect(first.server.logText()).toContain('store: PostgreSQL');
    await api(first.url, 'POST', '/api/sessions', { sessionId: 'pg-1' });
    fake.enqueue(fakeReply.toolCall('load_tool_group', { group_name: 'config' }), fakeReply.text('The config tools are loaded.'));
    const turn = await api(first.url, 'POST', '/api/sessions/pg-1/messages', { text: 'load the config tools' });
    expect(turn).toMatchObject({ reason: 'completed', reply: 'The config tools are loaded.' });
    expect(await api(first.url, 'GET', '/api/sessions/pg-1')).toMatchObject({ loadedGroups: ['config'] });
    expect(existsSync(path.join(first.dataDir, 'events.db'))).toBe(false);
    await first.server.kill();

    const second = await start('replica-a');
    const view = await api(second.url, 'GET', '/api/sessions/pg-1');
    expect(view).toMatchObject({ sessionId: 'pg-1', loadedGroups: ['config'], turnInProgress: false });
    expect(view.messages.map((m: { role: string }) => m.role)).toEqual(expect.arrayContaining(['user', 'assistant']));
    const listed = (await api(second.url, 'GET', '/api/sessions')).sessions as { sessionId: string }[];
    expect(listed.map((s) => s.sessionId)).toContain('pg-1');

    fake.enqueue(fakeReply.text('Still here.'));
    expect(await api(second.url, 'POST', '/api/sessions/pg-1/messages', { text: 'still there?' })).toMatchObject({ reason: 'completed', reply: 'Still here.' });
    const events = (await api(second.url, 'GET', '/api/sessions/pg-1/events')).events as RecordedEvent[];
    expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
    expect(events.filter((e) => e.type === 'ToolGroupLoaded')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'TurnFinished')).toHaveLength(2);
    // The last turn saw the loaded group's tools: the group survived the restart in the store.
    const lastRequest = fake.requests.at(-1)?.body as { tools?: { name: string }[] };
    expect(lastRequest.tools?.map((t) => t.name)).toEqual(expect.arrayContaining(['create_provider']));
  }, 180_000);

  it('PG-24 sessions are checkpointed in PostgreSQL: a turn writes a snapshot row, and a restarted server loads the session from it', async () => {
    const { fake, start, api, databaseUrl } = await setUp();
    const first = await start('replica-a', { ONECLAW_SNAPSHOT_EVERY: '4' });
    await api(first.url, 'POST', '/api/sessions', { sessionId: 'snap' });
    await api(first.url, 'PATCH', '/api/sessions/snap', { title: 'Before the snapshot' });
    fake.enqueue(fakeReply.text('Noted.'));
    expect(await api(first.url, 'POST', '/api/sessions/snap/messages', { text: 'remember this' })).toMatchObject({ reason: 'completed' });
    const store = await PostgresEventStore.connect(databaseUrl);
    try {
      // Written in the background after the append that passed revision 4.
      let snapshot: StoredSnapshot | undefined;
      for (const deadline = Date.now() + 30_000; !snapshot && Date.now() < deadline;) {
        snapshot = await store.snapshotStore().read(sessionStreamId('snap'), SESSION_PROJECTION);
        if (!snapshot) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(snapshot).toMatchObject({ version: SESSION_PROJECTION_VERSION, revision: expect.any(Number) });
      expect(snapshot?.state).toContain('Before the snapshot');
      await first.server.kill();
      // Marks the checkpoint (same revision and event, so the store accepts it): a server that
      // loads the session from it shows the mark; one that replayed the events would not.
      expect(
        await store.snapshotStore().write({ ...(snapshot as StoredSnapshot), state: (snapshot as StoredSnapshot).state.replace('Before the snapshot', 'Read from the snapshot') }),
      ).toBe(true);
    } finally {
      await store.close();
    }
    const second = await start('replica-a', { ONECLAW_SNAPSHOT_EVERY: '4' });
    expect(await api(second.url, 'GET', '/api/sessions/snap')).toMatchObject({ sessionId: 'snap', title: 'Read from the snapshot' });
  }, 180_000);

  it('PG-21 two server processes on one database: a session written through one is read, listed and continued through the other', async () => {
    const { fake, start, api } = await setUp();
    const [a, b] = await Promise.all([start('replica-a'), start('replica-b')]);
    await api(a.url, 'POST', '/api/sessions', { sessionId: 'shared' });
    fake.enqueue(fakeReply.text('Hello from A.'));
    expect(await api(a.url, 'POST', '/api/sessions/shared/messages', { text: 'hi A' })).toMatchObject({ reason: 'completed' });
    const listed = (await api(b.url, 'GET', '/api/sessions')).sessions as { sessionId: string }[];
    expect(listed.map((s) => s.sessionId)).toContain('shared');
    fake.enqueue(fakeReply.text('Hello from B.'));
    expect(await api(b.url, 'POST', '/api/sessions/shared/messages', { text: 'hi B' })).toMatchObject({ reason: 'completed', reply: 'Hello from B.' });
    const events = (await api(a.url, 'GET', '/api/sessions/shared/events')).events as RecordedEvent[];
    expect(events.filter((e) => e.type === 'TurnFinished')).toHaveLength(2);
    expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
  }, 180_000);

  it('PG-23 PostgreSQL stopped under a running server: requests answer 503 storage_unavailable and the server stays up; once PostgreSQL is back the same process serves again; the password is in no output', async () => {
    const { fake, start } = await setUp();
    const a = await start('replica-a');
    const raw = (method: string, route: string, body?: unknown) =>
      fetch(a.url + route, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect((await raw('POST', '/api/sessions', { sessionId: 'outage' })).status).toBe(201);
    await cluster().stop();
    try {
      const down = await raw('GET', '/api/sessions/outage/events');
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ code: 'storage_unavailable' });
      expect((await raw('POST', '/api/sessions/outage/messages', { text: 'are you there?' })).status).toBe(503);
      expect(a.server.child.exitCode).toBeNull();
    } finally {
      await cluster().restart();
    }
    fake.enqueue(fakeReply.text('Back again.'));
    const turn = await raw('POST', '/api/sessions/outage/messages', { text: 'and now?' });
    expect(await turn.json()).toMatchObject({ reason: 'completed', reply: 'Back again.' });
    expect(a.server.logText()).toContain('storage_unavailable');
    expect(a.server.logText()).not.toContain(cluster().password);
  }, 180_000);

  it('PG-22 a wrong password stops the start with storage_unavailable / auth_failed, and the password is in no output', async () => {
    const { start, databaseUrl } = await setUp();
    const wrong = new URL(databaseUrl);
    wrong.password = 'Wr0ng-e2e-pa55word';
    const failed = start('replica-x', { ONECLAW_POSTGRES_URL: wrong.toString(), ONECLAW_LOG: 'info' });
    await expect(failed).rejects.toThrow('server did not start');
    const output = ((await failed.catch((e: Error) => e)) as Error).message;
    expect(output).toContain('auth_failed');
    expect(output).not.toContain('Wr0ng-e2e-pa55word');
    expect(output).not.toContain(cluster().password);
  }, 120_000);

  it('PG-22 ONECLAW_POSTGRES_URL together with ONECLAW_KURRENTDB_CONNECTION_STRING stops the start with invalid_config', async () => {
    const { start } = await setUp();
    const failed = start('replica-x', { ONECLAW_KURRENTDB_CONNECTION_STRING: 'kurrentdb://127.0.0.1:2113?tls=false' });
    const output = ((await failed.catch((e: Error) => e)) as Error).message;
    expect(output).toContain('[invalid_config]');
    expect(output).toContain('Both ONECLAW_POSTGRES_URL and ONECLAW_KURRENTDB_CONNECTION_STRING are set');
    expect(output).not.toContain(cluster().password);
  }, 120_000);
});

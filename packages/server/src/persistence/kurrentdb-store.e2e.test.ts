import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SESSION_PROJECTION, SESSION_PROJECTION_VERSION, sessionStreamId, type StoredSnapshot } from '@oneclaw/core';
import { KurrentDbEventStore } from '@oneclaw/event-store-kurrentdb';
import { startFakeKurrentDb } from '@oneclaw/event-store-kurrentdb/testing';
import { fakeReply, startFakeModelServer } from '@oneclaw/model-providers/testing';
import { callServer, serverProcessEnv, ServerProcessGroup, waitFor } from '../testing/server-process';

// Real server processes (main.ts from source) on the loopback FAKE KurrentDB (it runs in this
// test process, so it outlives the servers), with a FAKE Anthropic model. Each start compiles
// the server (swc): the timeouts allow for it.
const TOKEN = 'kurrentdb-e2e-token-0123456789';
const KEY = 'sk-ant-kurrentdb-e2e-key-000';

describe('a server process on KurrentDB (a loopback FAKE KurrentDB, FAKE Anthropic model)', () => {
  const servers = new ServerProcessGroup();
  afterEach(() => servers.killAll());

  it('F4 sessions are checkpointed in KurrentDB: a turn writes a snapshot, a restarted server loads the session from it, and the session list never shows the snapshot stream', async () => {
    const kurrent = await startFakeKurrentDb();
    servers.also(() => kurrent.close());
    const model = await startFakeModelServer('anthropic', { apiKey: KEY });
    servers.also(() => model.close());
    const start = async () => {
      // A data directory per process: with KurrentDB it holds no events, so a new one proves it.
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-kurrentdb-e2e-'));
      servers.also(() => rmSync(dataDir, { recursive: true, force: true }));
      const server = servers.start({
        ...serverProcessEnv({ dataDir, token: TOKEN, anthropic: { key: KEY, url: model.url } }),
        ONECLAW_KURRENTDB_CONNECTION_STRING: kurrent.connectionString,
        ONECLAW_SNAPSHOT_EVERY: '4',
      });
      return { server, url: await server.url() };
    };
    const api = (url: string, method: string, route: string, body?: unknown) => callServer(url, TOKEN, method, route, body);

    const first = await start();
    expect(first.server.logText()).toContain('store: KurrentDB');
    await api(first.url, 'POST', '/api/sessions', { sessionId: 'snap' });
    await api(first.url, 'PATCH', '/api/sessions/snap', { title: 'Before the snapshot' });
    model.enqueue(fakeReply.text('Noted.'));
    expect(await api(first.url, 'POST', '/api/sessions/snap/messages', { text: 'remember this' })).toMatchObject({ reason: 'completed' });

    const store = await KurrentDbEventStore.connect(kurrent.connectionString);
    try {
      // Written in the background after the append that passed revision 4.
      const snapshot = await waitFor('the snapshot', () => store.snapshotStore().read(sessionStreamId('snap'), SESSION_PROJECTION), 1200);
      expect(snapshot).toMatchObject({ version: SESSION_PROJECTION_VERSION, revision: expect.any(Number) });
      expect(snapshot.state).toContain('Before the snapshot');
      // The node's log holds the snapshot stream, but `$all` as the store reads it (the session
      // list's source) gives the session's events only, none of that stream.
      expect(kurrent.records().some((r) => r.streamName === 'snapshot-session:session-snap')).toBe(true);
      const all = await store.readAll();
      expect(all.filter((e) => e.streamId === sessionStreamId('snap')).length).toBeGreaterThan(snapshot.revision);
      expect(all.filter((e) => e.streamId.startsWith('snapshot-'))).toEqual([]);
      await first.server.kill();
      // Marks the checkpoint (same revision and event, so the store accepts it): a server that
      // loads the session from it shows the mark; one that replayed the events would not.
      expect(await store.snapshotStore().write({ ...snapshot, state: snapshot.state.replace('Before the snapshot', 'Read from the snapshot') } satisfies StoredSnapshot)).toBe(
        true,
      );
    } finally {
      await store.close();
    }

    const second = await start();
    expect(await api(second.url, 'GET', '/api/sessions/snap')).toMatchObject({ sessionId: 'snap', title: 'Read from the snapshot' });
    // The session list (built from `$all`) holds the session once, and nothing from its snapshot stream.
    const listed = (await api(second.url, 'GET', '/api/sessions')).sessions as { sessionId: string }[];
    expect(listed.map((s) => s.sessionId)).toEqual(['snap']);
  }, 180_000);
});

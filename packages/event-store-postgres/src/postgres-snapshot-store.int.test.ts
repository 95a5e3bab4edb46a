import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { StorageUnavailableError } from '@oneclaw/core';
import { describeSnapshotStoreContract, testEvent } from '@oneclaw/core/testing';
import { describeWithPostgres } from './testing';
import { PostgresEventStore } from './postgres-event-store';

// A real PostgreSQL (a cluster of this file's own): the snapshot contract with a new database per
// test, checked against the store's own events (SQL-04), then what only PostgreSQL can show.

describeWithPostgres('PostgresSnapshotStore on a real PostgreSQL', (cluster) => {
  describeSnapshotStoreContract('PostgresSnapshotStore, a new database per test', async () => {
    const events = await PostgresEventStore.connect(await cluster().createDatabase());
    return { snapshots: events.snapshotStore(), events, dispose: () => events.close() };
  });

  let url: string;
  let store: PostgresEventStore;
  beforeAll(async () => {
    url = await cluster().createDatabase();
    store = await PostgresEventStore.connect(url);
  });
  afterAll(async () => {
    await store.close();
  });

  it('replicas share one snapshot per stream: another pool reads what one wrote, and a later write replaces it', async () => {
    await store.append('session-shared', [testEvent('s0'), testEvent('s1')], { expectedRevision: 'no_stream' });
    const other = await PostgresEventStore.connect(url);
    try {
      const first = { streamId: 'session-shared', projection: 'session', version: 1, revision: 0, eventId: 's0', state: '{"n":0}', takenAt: '2026-11-26T00:00:00.000Z' };
      expect(await store.snapshotStore().write(first)).toBe(true);
      expect(await other.snapshotStore().read('session-shared', 'session')).toEqual(first);
      const second = { ...first, revision: 1, eventId: 's1', state: '{"n":1}' };
      expect(await other.snapshotStore().write(second)).toBe(true);
      expect(await store.snapshotStore().read('session-shared', 'session')).toEqual(second);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        expect((await client.query(`SELECT count(*)::int AS n FROM oneclaw.snapshots WHERE stream_id = 'session-shared'`)).rows).toEqual([{ n: 1 }]);
      } finally {
        await client.end();
      }
    } finally {
      await other.close();
    }
  });

  it('after close, reads and writes fail with storage_unavailable', async () => {
    const closing = await PostgresEventStore.connect(url);
    const snapshots = closing.snapshotStore();
    await closing.close();
    await expect(snapshots.read('session-x', 'session')).rejects.toBeInstanceOf(StorageUnavailableError);
    const snapshot = { streamId: 'session-x', projection: 'session', version: 1, revision: 0, eventId: 'x0', state: '{}', takenAt: '2026-11-26T00:00:00.000Z' };
    await expect(snapshots.write(snapshot)).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});

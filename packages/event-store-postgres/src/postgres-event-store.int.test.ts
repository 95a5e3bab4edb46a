import { afterEach, beforeAll, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PayloadTooLargeError, StorageCorruptError, type EventEnvelope } from '@oneclaw/core';
import { describeEventStoreContract, testEvent } from '@oneclaw/core/testing';
import { describeWithPostgres } from './testing';
import { PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store';
import { POSTGRES_SCHEMA_VERSION } from './index';

// A real PostgreSQL (Debian's binaries, a cluster of this file's own): the contract suite with a
// new database per test (default schema), again with a new schema per test and a small append
// limit, then what only a server with many connections can show.

const newSchema = () => `t_${randomBytes(6).toString('hex')}`;

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

const batchOf = (writer: number): EventEnvelope[] => ['a', 'b', 'c'].map((part) => testEvent(`w${writer}-${part}`));

describeWithPostgres('PostgresEventStore on a real PostgreSQL', (cluster) => {
  describeEventStoreContract('PostgresEventStore, a new database per test', async () => {
    const store = await PostgresEventStore.connect(await cluster().createDatabase());
    return { store, dispose: () => store.close() };
  });

  let shared: string;
  beforeAll(async () => {
    shared = await cluster().createDatabase();
  });
  describeEventStoreContract(
    'PostgresEventStore, a new schema per test, maxAppendBytes 4096',
    async () => {
      const store = await PostgresEventStore.connect(shared, { schema: newSchema(), maxAppendBytes: 4096 });
      return { store, dispose: () => store.close() };
    },
    { maxAppendBytes: 4096 },
  );

  const opened: PostgresEventStore[] = [];
  const raws: pg.Client[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    for (const client of raws.splice(0)) await client.end();
  });
  const open = async (url: string, options?: PostgresEventStoreOptions) => {
    const store = await PostgresEventStore.connect(url, options);
    opened.push(store);
    return store;
  };
  /** Several stores on one database: separate pools, so separate connections (as on separate replicas). */
  const openMany = (url: string, n: number, options?: PostgresEventStoreOptions) => Promise.all(Array.from({ length: n }, () => open(url, options)));
  const raw = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    raws.push(client);
    return client;
  };

  it('PG-01 the schema: one events table with unique (stream, revision) and (stream, event id), a snapshots table, a migrations table at the current version', async () => {
    const url = await cluster().createDatabase();
    const store = await open(url);
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    const client = await raw(url);
    const migrations = await client.query('SELECT version FROM oneclaw.schema_migrations ORDER BY version');
    expect(migrations.rows).toEqual([{ version: 1 }, { version: 2 }]);
    expect(POSTGRES_SCHEMA_VERSION).toBe(2);
    const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'oneclaw' ORDER BY table_name`);
    expect(tables.rows.map((r: { table_name: string }) => r.table_name)).toEqual(['event_positions', 'events', 'schema_migrations', 'snapshots']);
    // The schema itself refuses a second row for a revision or an event id, even from outside the store.
    const insert = (revision: number, eventId: string, position: number) =>
      client.query(`INSERT INTO oneclaw.events (position, stream_id, revision, event_id, type, data, metadata) VALUES ($1, 'session-A', $2, $3, 'T', '{}', '{}')`, [
        position,
        revision,
        eventId,
      ]);
    expect(await failure(insert(0, 'other', 100))).toMatchObject({ code: '23505' });
    expect(await failure(insert(1, 'e1', 101))).toMatchObject({ code: '23505' });
    const info = await store.connectionInfo();
    expect(info).toMatchObject({ schema: 'oneclaw', schemaVersion: 2, synchronousCommit: 'on', poolSize: 10 });
    expect(info.serverVersion).toMatch(/^\d+/);
    expect(info.target).toBe(`127.0.0.1:${cluster().port}/${new URL(url).pathname.slice(1)}`);
  });

  it('PG-02 reconnecting keeps every event and runs no migration again; five stores connecting at once migrate once', async () => {
    const url = await cluster().createDatabase();
    await Promise.all((await openMany(url, 5)).map((s, i) => s.append(`session-${i}`, [testEvent('e1')], { expectedRevision: 'no_stream' })));
    const again = await open(url);
    expect((await again.readAll()).map((e) => e.streamId).sort()).toEqual(['session-0', 'session-1', 'session-2', 'session-3', 'session-4']);
    const client = await raw(url);
    expect((await client.query('SELECT count(*)::int AS n FROM oneclaw.schema_migrations')).rows).toEqual([{ n: 2 }]);
  });

  it('PG-02 a store made by version 1 (no snapshots table) is migrated to 2 on connect, its events kept', async () => {
    const url = await cluster().createDatabase();
    const store = await open(url);
    await store.append('session-A', [testEvent('e1'), testEvent('e2')], { expectedRevision: 'no_stream' });
    await store.close();
    const client = await raw(url);
    // What a version 1 deployment has: no snapshots table, one migration row.
    await client.query('DROP TABLE oneclaw.snapshots');
    await client.query('DELETE FROM oneclaw.schema_migrations WHERE version = 2');
    const again = await open(url);
    expect((await again.connectionInfo()).schemaVersion).toBe(2);
    expect((await again.readStream('session-A')).map((e) => e.metadata.eventId)).toEqual(['e1', 'e2']);
    const snapshot = { streamId: 'session-A', projection: 'session', version: 1, revision: 1, eventId: 'e2', state: '{}', takenAt: '2026-11-26T00:00:00.000Z' };
    expect(await again.snapshotStore().write(snapshot)).toBe(true);
    expect(await again.snapshotStore().read('session-A', 'session')).toEqual(snapshot);
  });

  it('PG-03 a schema newer than this build is refused with storage_corrupt, and left untouched', async () => {
    const url = await cluster().createDatabase();
    const store = await open(url);
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    await store.close();
    const client = await raw(url);
    await client.query('INSERT INTO oneclaw.schema_migrations (version) VALUES (3)');
    const error = await failure(PostgresEventStore.connect(url));
    expect(error).toBeInstanceOf(StorageCorruptError);
    expect(error).toMatchObject({ code: 'storage_corrupt', details: { schemaVersion: 3, supported: 2, reason: 'schema_too_new' } });
    expect(error.message).toContain('run the newer OneClaw on every replica');
    expect((await client.query('SELECT max(version)::int AS v FROM oneclaw.schema_migrations')).rows).toEqual([{ v: 3 }]);
    expect((await client.query('SELECT count(*)::int AS n FROM oneclaw.events')).rows).toEqual([{ n: 1 }]);
  });

  it("PG-03 a schema holding another application's tables is refused with storage_corrupt, and left untouched", async () => {
    const url = await cluster().createDatabase();
    const client = await raw(url);
    await client.query('CREATE SCHEMA oneclaw; CREATE TABLE oneclaw.orders (id int)');
    const error = await failure(PostgresEventStore.connect(url));
    expect(error).toMatchObject({ code: 'storage_corrupt', details: { reason: 'foreign_schema', tables: ['orders'] } });
    expect(error.message).toContain('ONECLAW_POSTGRES_SCHEMA');
    expect((await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'oneclaw'`)).rows).toEqual([{ table_name: 'orders' }]);
  });

  it('PG-04 20 stores (separate connections) append with the same expected revision: exactly one wins, the others get stream_revision_conflict', async () => {
    const url = await cluster().createDatabase();
    const stores = await openMany(url, 20, { poolSize: 1 });
    await stores[0]?.append('session-A', [testEvent('seed')], { expectedRevision: 'no_stream' });
    const outcomes = await Promise.allSettled(stores.map((store, i) => store.append('session-A', batchOf(i), { expectedRevision: 0 })));
    const winners = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'stream_revision_conflict', expected: 0, actual: 3 });
    const events = await (stores[1] as PostgresEventStore).readStream('session-A');
    expect(events.map((e) => [e.revision, e.metadata.eventId])).toEqual([[0, 'seed'], ...batchOf(winners[0] as number).map((e, i) => [i + 1, e.metadata.eventId])]);
  });

  it('PG-04 writers on 5 stores that re-read and retry on conflict all get in: whole batches, contiguous revisions and positions', async () => {
    const url = await cluster().createDatabase();
    const stores = await openMany(url, 5, { poolSize: 2 });
    const write = async (writer: number): Promise<number> => {
      const store = stores[writer % stores.length] as PostgresEventStore;
      for (let attempt = 1; ; attempt++) {
        const revision = await store.streamState('session-A');
        try {
          await store.append('session-A', batchOf(writer), { expectedRevision: revision });
          return attempt;
        } catch (error) {
          if ((error as { code?: string }).code !== 'stream_revision_conflict') throw error;
        }
      }
    };
    const attempts = await Promise.all(Array.from({ length: 30 }, (_, i) => write(i)));
    expect(Math.max(...attempts)).toBeGreaterThan(1); // they really collided
    const events = await (stores[0] as PostgresEventStore).readAll();
    expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 90 }, (_, i) => i));
    expect(events.map((e) => e.position)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
    for (let k = 0; k < 30; k++) {
      const batch = events.slice(3 * k, 3 * k + 3).map((e) => e.metadata.eventId);
      const writer = Number(/^w(\d+)-a$/.exec(batch[0] ?? '')?.[1]);
      expect(batch).toEqual(batchOf(writer).map((e) => e.metadata.eventId));
    }
  });

  it('PG-05 the same batch sent through two stores at once is written once; both are acknowledged with the same result', async () => {
    const url = await cluster().createDatabase();
    const [a, b] = (await openMany(url, 2)) as [PostgresEventStore, PostgresEventStore];
    await a.append('session-A', [testEvent('seed')], { expectedRevision: 'no_stream' });
    const [first, second] = await Promise.all([a.append('session-A', batchOf(1), { expectedRevision: 0 }), b.append('session-A', batchOf(1), { expectedRevision: 0 })]);
    expect(second).toEqual(first);
    expect(await a.readStream('session-A')).toHaveLength(4);
  });

  it('PG-06 an append waits for the append lock: while another transaction holds it, the append neither commits nor takes a position', async () => {
    const url = await cluster().createDatabase();
    const store = await open(url);
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    const holder = await raw(url);
    await holder.query('BEGIN');
    await holder.query('SELECT last_position FROM oneclaw.event_positions FOR UPDATE');
    const pending = store.append('session-B', [testEvent('e2')], { expectedRevision: 'no_stream' });
    const observer = await raw(url);
    // Wait (on a condition, not a clock) until the append is blocked on the lock.
    for (;;) {
      const { rows } = await observer.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'oneclaw' AND wait_event_type = 'Lock'`);
      if (rows[0].n === 1) break;
    }
    expect((await store.readAll()).map((e) => e.position)).toEqual([1]);
    // The holder is an append in flight: it takes position 2 and commits; the waiting one gets 3.
    await holder.query(`INSERT INTO oneclaw.events (position, stream_id, revision, event_id, type, data, metadata) VALUES (2, 'session-C', 0, 'x', 'T', '{}', '{}')`);
    await holder.query('UPDATE oneclaw.event_positions SET last_position = 2');
    await holder.query('COMMIT');
    expect(await pending).toEqual({ nextExpectedRevision: 0, position: 3 });
    expect((await store.readAll()).map((e) => [e.position, e.streamId])).toEqual([
      [1, 'session-A'],
      [2, 'session-C'],
      [3, 'session-B'],
    ]);
  });

  it('PG-07 EST-20 / EST-07 an over-limit batch is refused before any write; a failing insert writes none of the batch and takes no position', async () => {
    const url = await cluster().createDatabase();
    const store = await open(url, { maxAppendBytes: 2048 });
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    expect(await failure(store.append('session-A', [testEvent('big', { s: 'x'.repeat(4096) })], { expectedRevision: 0 }))).toBeInstanceOf(PayloadTooLargeError);
    // A fault in the middle of the transaction: a trigger refuses the third row of the batch.
    const client = await raw(url);
    await client.query(`CREATE FUNCTION oneclaw.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.event_id = 'w1-c' THEN RAISE EXCEPTION 'injected fault'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse BEFORE INSERT ON oneclaw.events FOR EACH ROW EXECUTE FUNCTION oneclaw.refuse()`);
    const error = await failure(store.append('session-A', batchOf(1), { expectedRevision: 0 }));
    expect(error).toMatchObject({ code: 'storage_unavailable', details: { reason: 'server_error', pgCode: 'P0001' } });
    expect(error.message).toContain('injected fault');
    await client.query('DROP TRIGGER refuse ON oneclaw.events');
    expect((await store.readStream('session-A')).map((e) => e.metadata.eventId)).toEqual(['e1']);
    expect(await store.append('session-A', batchOf(2), { expectedRevision: 0 })).toEqual({ nextExpectedRevision: 3, position: 4 });
  });

  it('PG-08 a closed store refuses every call with storage_unavailable; closing twice is fine', async () => {
    const store = await PostgresEventStore.connect(await cluster().createDatabase());
    await store.close();
    await store.close();
    for (const call of [store.append('s', [testEvent('e')], { expectedRevision: 'any' }), store.readAll(), store.readStream('s'), store.streamState('s'), store.connectionInfo()]) {
      expect(await failure(call)).toMatchObject({ code: 'storage_unavailable' });
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash, randomFillSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { EventNotSerializableError, PayloadTooLargeError, StorageCorruptError, StorageUnavailableError, type EventEnvelope } from '@oneclaw/core';
import { describeEventStoreContract, testEvent } from '@oneclaw/core/testing';
import { SqliteEventStore } from './sqlite-event-store';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-sqlite-'));
}

function contractStore(maxAppendBytes?: number) {
  return () => {
    const dir = tempDir();
    const store = SqliteEventStore.open(path.join(dir, 'events.db'), { maxAppendBytes });
    return {
      store,
      dispose: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  };
}

describeEventStoreContract('SqliteEventStore', contractStore());
describeEventStoreContract('SqliteEventStore, maxAppendBytes 4096', contractStore(4096), { maxAppendBytes: 4096 });
describeEventStoreContract('SqliteEventStore, group commit off (one transaction per append)', () => {
  const dir = tempDir();
  const store = SqliteEventStore.open(path.join(dir, 'events.db'), { groupCommit: false });
  return {
    store,
    dispose: async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

const sha256 = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

function openFailure(file: string, options?: Parameters<typeof SqliteEventStore.open>[1]): Error & { code?: string; details?: Record<string, unknown> } {
  try {
    SqliteEventStore.open(file, options);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected open to fail, but it succeeded');
}

const batchOf = (writer: number): EventEnvelope[] => ['a', 'b', 'c'].map((part) => testEvent(`w${writer}-${part}`));

describe('SqliteEventStore on a real file', () => {
  let dir: string;
  let file: string;
  const opened: SqliteEventStore[] = [];
  const open = (options?: Parameters<typeof SqliteEventStore.open>[1]): SqliteEventStore => {
    const store = SqliteEventStore.open(file, options);
    opened.push(store);
    return store;
  };
  const raw = (fn: (db: Database.Database) => void): void => {
    const db = new Database(file);
    try {
      fn(db);
    } finally {
      db.close();
    }
  };

  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'events.db');
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('SQL-01 every open, reopen included, runs WAL, synchronous=FULL, busy_timeout >= 5000 and foreign_keys=ON', async () => {
    for (const options of [{}, {}, { busyTimeoutMs: 8000 }]) {
      const store = open(options);
      const info = store.connectionInfo();
      expect(info).toMatchObject({ file, readonly: false, journalMode: 'wal', synchronous: 2, foreignKeys: true, schemaVersion: 2 });
      expect(info.busyTimeoutMs).toBe(options.busyTimeoutMs ?? 5000);
      await store.close();
    }
    // WAL is recorded in the file, so any other process sees it too.
    raw((db) => expect(db.pragma('journal_mode', { simple: true })).toBe('wal'));
  });

  it('SQL-10 reopening keeps every event; running the migration again changes nothing', async () => {
    fs.writeFileSync(file, ''); // an empty file is a version-0 store: it gets migrated, not refused
    const first = open();
    await first.append('session-A', [testEvent('a0', { text: 'héllo' }), testEvent('a1')], { expectedRevision: 'no_stream' });
    await first.append('session-B', [testEvent('b0')], { expectedRevision: 'no_stream' });
    const before = await first.readAll();
    await first.close();
    const schema = (): unknown[] => {
      let rows: unknown[] = [];
      raw((db) => (rows = db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all()));
      return rows;
    };
    const schemaBefore = schema();

    const second = open();
    expect(await second.readAll()).toEqual(before);
    expect(before.map((e) => [e.streamId, e.revision, e.metadata.eventId, e.data])).toEqual([
      ['session-A', 0, 'a0', { text: 'héllo' }],
      ['session-A', 1, 'a1', { n: 'a1' }],
      ['session-B', 0, 'b0', { n: 'b0' }],
    ]);
    expect(await second.append('session-A', [testEvent('a2')], { expectedRevision: 1 })).toEqual({ nextExpectedRevision: 2, position: 4 });
    await second.close();
    expect(schema()).toEqual(schemaBefore);
    raw((db) => expect(db.pragma('user_version', { simple: true })).toBe(2));
  });

  it('SQL-05 two first opens of a new file at once: whichever statement of ours the other store creates and migrates it before, our open succeeds', async () => {
    // Another process opening the same new file at the same moment, simulated in between our
    // connection's statements: before the k-th statement our open prepares or runs as a pragma
    // outside a transaction (inside one, the other process would wait for our commit), another
    // store opens the file (WAL, migration) and closes again.
    const proto = Database.prototype as unknown as Record<'pragma' | 'prepare', (this: Database.Database, ...args: unknown[]) => unknown>;
    const original = { pragma: proto.pragma, prepare: proto.prepare };
    let boundaries = 0;
    for (let k = 1; k <= 12; k++) {
      file = path.join(dir, `race-${k}.db`);
      let seen = 0;
      let racing = false;
      const interleave = (kind: 'pragma' | 'prepare') =>
        function (this: Database.Database, ...args: unknown[]): unknown {
          if (!racing && this.name === file && !this.inTransaction && ++seen === k) {
            racing = true;
            try {
              void SqliteEventStore.open(file).close();
            } finally {
              racing = false;
            }
          }
          return original[kind].apply(this, args);
        };
      proto.pragma = interleave('pragma');
      proto.prepare = interleave('prepare');
      let store: SqliteEventStore;
      try {
        store = open();
      } finally {
        proto.pragma = original.pragma;
        proto.prepare = original.prepare;
      }
      boundaries = Math.max(boundaries, seen);
      await store.append('session-race', [testEvent(`k${k}`)], { expectedRevision: 'no_stream' });
      expect((await store.readStream('session-race')).map((e) => e.metadata.eventId)).toEqual([`k${k}`]);
    }
    // Every boundary was tried: open runs more than a few statements, and fewer than 12.
    expect(boundaries).toBeGreaterThan(3);
    expect(boundaries).toBeLessThan(12);
  });

  it('50 concurrent writers with the same expected revision: exactly 1 wins, 49 get stream_revision_conflict, the winning batch is whole', async () => {
    const store = open();
    await store.append('session-A', [testEvent('seed')], { expectedRevision: 'no_stream' });
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => store.append('session-A', batchOf(i), { expectedRevision: 0 })));

    const winners = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
    expect(winners).toHaveLength(1);
    const losers = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(losers).toHaveLength(49);
    for (const reason of losers) expect(reason).toMatchObject({ code: 'stream_revision_conflict', expected: 0, actual: 3 });
    const events = await store.readStream('session-A');
    expect(events.map((e) => [e.revision, e.metadata.eventId, e.data])).toEqual([
      [0, 'seed', { n: 'seed' }],
      ...batchOf(winners[0] as number).map((e, i) => [i + 1, e.metadata.eventId, e.data]),
    ]);
  });

  it('50 writers that re-read and retry on conflict all get in: 50 whole batches, revisions contiguous, none interleaved', async () => {
    const store = open();
    await store.append('session-A', [testEvent('seed')], { expectedRevision: 'no_stream' });
    const write = async (writer: number): Promise<number> => {
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
    const attempts = await Promise.all(Array.from({ length: 50 }, (_, i) => write(i)));
    expect(Math.max(...attempts)).toBeGreaterThan(1); // they really collided

    const events = await store.readStream('session-A');
    expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 151 }, (_, i) => i));
    const batches = Array.from({ length: 50 }, (_, k) => events.slice(1 + 3 * k, 4 + 3 * k));
    const writers = batches.map((batch) => {
      const writer = Number(/^w(\d+)-a$/.exec(batch[0]?.metadata.eventId ?? '')?.[1]);
      expect(batch.map((e) => [e.metadata.eventId, e.data])).toEqual(batchOf(writer).map((e) => [e.metadata.eventId, e.data]));
      return writer;
    });
    expect([...writers].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('EST-07 a fault in the middle of the transaction (a test trigger aborts the 3rd insert) writes none of the batch', async () => {
    const store = open();
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    const before = await store.readAll();
    raw((db) => db.exec("CREATE TRIGGER test_fault BEFORE INSERT ON events WHEN NEW.event_id = 'e4' BEGIN SELECT RAISE(ABORT, 'injected fault'); END"));

    const batch = [testEvent('e2'), testEvent('e3'), testEvent('e4')];
    const error = await failure(store.append('session-A', batch, { expectedRevision: 0 }));
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error).toMatchObject({ code: 'storage_unavailable', details: { sqliteCode: 'SQLITE_CONSTRAINT_TRIGGER' } });
    expect(error.message).toContain('injected fault');
    expect(await store.readAll()).toEqual(before);
    expect(await store.streamState('session-A')).toBe(0);

    // The rollback left no trace, not even a gap in positions: the same batch lands right after e1.
    raw((db) => db.exec('DROP TRIGGER test_fault'));
    expect(await store.append('session-A', batch, { expectedRevision: 0 })).toEqual({ nextExpectedRevision: 3, position: 4 });
    expect((await store.readStream('session-A')).map((e) => e.metadata.eventId)).toEqual(['e1', 'e2', 'e3', 'e4']);
  });

  it('EST-20 / EST-07 an over-limit or unserializable batch is refused before any write', async () => {
    const store = open({ maxAppendBytes: 1000 });
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    const tooBig = await failure(store.append('session-A', [testEvent('e2', { text: 'x'.repeat(1000) })], { expectedRevision: 0 }));
    expect(tooBig).toBeInstanceOf(PayloadTooLargeError);
    expect(tooBig).toMatchObject({ code: 'payload_too_large', limit: 1000 });
    const unserializable = await failure(store.append('session-A', [testEvent('e2'), testEvent('e3', { run: () => 1 })], { expectedRevision: 0 }));
    expect(unserializable).toBeInstanceOf(EventNotSerializableError);
    expect(unserializable).toMatchObject({ code: 'event_not_serializable', eventId: 'e3' });
    raw((db) => {
      expect(db.prepare('SELECT event_id FROM events').pluck().all()).toEqual(['e1']);
      expect(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck().get()).toBe(1);
    });
  });

  it('SQL-07 the schema itself refuses a second (stream, event id) row, even from outside the store', async () => {
    const store = open();
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    raw((db) =>
      expect(() => db.prepare("INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES ('session-A', 1, 'e1', 'T', '{}', '{}')").run()).toThrow(
        /UNIQUE constraint failed: events.stream_id, events.event_id/,
      ),
    );
  });

  it('SQL-09 a file of random bytes is refused with storage_corrupt and left untouched', () => {
    fs.writeFileSync(file, randomFillSync(Buffer.alloc(16 * 1024)));
    const hash = sha256(file);
    const error = openFailure(file);
    expect(error).toBeInstanceOf(StorageCorruptError);
    expect(error.message).toMatch(/not a database.*restore it from a backup or point the store at a new file/);
    expect(sha256(file)).toBe(hash);
  });

  it('SQL-09 a store with a damaged page is refused with storage_corrupt and left untouched', async () => {
    const store = open();
    for (let i = 0; i < 20; i++) {
      await store.append(
        'session-A',
        Array.from({ length: 10 }, (_, j) => testEvent(`e${i}-${j}`, { text: 'x'.repeat(100) })),
        { expectedRevision: 'any' },
      );
    }
    await store.close();
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    expect(bytes.length / pageSize).toBeGreaterThan(10);
    randomFillSync(bytes, 2 * pageSize, pageSize); // page 3: a b-tree page, well past the header
    fs.writeFileSync(file, bytes);
    const hash = sha256(file);

    const error = openFailure(file);
    expect(error).toMatchObject({ code: 'storage_corrupt' });
    expect(error.message).toMatch(/failed SQLite's integrity check.*restore it from a backup/);
    expect(sha256(file)).toBe(hash);
  });

  it("SQL-09 another application's SQLite database is refused with storage_corrupt and left untouched", () => {
    raw((db) => db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me');"));
    const hash = sha256(file);
    const error = openFailure(file);
    expect(error).toBeInstanceOf(StorageCorruptError);
    expect(error.message).toMatch(/not a OneClaw event store.*tables: notes.*left untouched/);
    expect(sha256(file)).toBe(hash);
    raw((db) => {
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(db.prepare('SELECT body FROM notes').pluck().all()).toEqual(['keep me']);
    });
  });

  it('SQL-09 a database that claims our schema version without our events table is refused', () => {
    raw((db) => db.exec('CREATE TABLE events (id INTEGER PRIMARY KEY, payload BLOB); PRAGMA user_version = 1;'));
    expect(openFailure(file)).toMatchObject({ code: 'storage_corrupt', details: { schemaVersion: 1, tables: ['events'] } });
  });

  it('SQL-10 a store with a newer schema version is refused, not downgraded, and left untouched', async () => {
    const store = open();
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    await store.close();
    raw((db) => db.pragma('user_version = 3'));
    const hash = sha256(file);
    const error = openFailure(file);
    expect(error).toMatchObject({ code: 'storage_corrupt', details: { schemaVersion: 3, supported: 2 } });
    expect(error.message).toMatch(/newer than this build understands.*run a newer OneClaw/);
    expect(sha256(file)).toBe(hash);
  });

  it('SQL-08 a store opened with readonly: true refuses appends as storage_unavailable and keeps serving reads (real chmod 0444: sqlite-crash.int.test.ts)', async () => {
    const writer = open();
    await writer.append('session-A', [testEvent('e1', { v: 1 }), testEvent('e2', { v: 2 })], { expectedRevision: 'no_stream' });
    await writer.close();

    const reader = open({ readonly: true });
    expect(reader.connectionInfo()).toMatchObject({ readonly: true, journalMode: 'wal', schemaVersion: 2 });
    const error = await failure(reader.append('session-A', [testEvent('e3')], { expectedRevision: 1 }));
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error).toMatchObject({ details: { sqliteCode: 'SQLITE_READONLY' } });
    expect((await reader.readStream('session-A')).map((e) => e.data)).toEqual([{ v: 1 }, { v: 2 }]);
    expect(await reader.streamState('session-A')).toBe(1);
    expect(openFailure(path.join(dir, 'missing.db'), { readonly: true })).toMatchObject({ code: 'storage_unavailable' });
  });

  it('SQL-06 a write lock held past busy_timeout is storage_unavailable, never a raw SQLITE_BUSY; the append works once it is released', async () => {
    const store = open({ busyTimeoutMs: 100 });
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      const error = await failure(store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' }));
      expect(error).toBeInstanceOf(StorageUnavailableError);
      expect(error).toMatchObject({ details: { sqliteCode: 'SQLITE_BUSY' } });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    expect(await store.streamState('session-A')).toBe(0);
  });

  it('a directory that does not exist is storage_unavailable on open', () => {
    expect(openFailure(path.join(dir, 'nope', 'events.db'))).toMatchObject({ code: 'storage_unavailable' });
  });

  it('every method of a closed store is storage_unavailable; closing twice is fine', async () => {
    const store = open();
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    await store.close();
    await store.close();
    const calls: Promise<unknown>[] = [
      store.append('session-A', [testEvent('e2')], { expectedRevision: 0 }),
      store.readStream('session-A'),
      store.readAll(),
      store.streamState('session-A'),
    ];
    for (const call of calls) expect(await failure(call)).toMatchObject({ code: 'storage_unavailable' });
  });
});

describe('SqliteEventStore group commit', () => {
  let dir: string;
  let file: string;
  let store: SqliteEventStore;
  let commits: number[];

  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'events.db');
    commits = [];
    store = SqliteEventStore.open(file, { onCommit: (appends) => commits.push(appends) });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const settle = (promises: readonly Promise<unknown>[]) => Promise.allSettled(promises);
  const codeOf = (outcome: PromiseSettledResult<unknown>): unknown => (outcome.status === 'rejected' ? (outcome.reason as { code?: string }).code : 'ok');

  it('appends made in the same tick are committed together: one transaction, each append checked on its own', async () => {
    const outcomes = await settle([
      store.append('session-A', [testEvent('a0'), testEvent('a1')], { expectedRevision: 'no_stream' }),
      store.append('session-B', [testEvent('b0')], { expectedRevision: 'no_stream' }),
      // Decided on the first append of the same group: it sees that append's rows.
      store.append('session-A', [testEvent('a2')], { expectedRevision: 1 }),
    ]);
    expect(outcomes.map(codeOf)).toEqual(['ok', 'ok', 'ok']);
    expect(commits).toEqual([3]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : undefined))).toEqual([
      { nextExpectedRevision: 1, position: 2 },
      { nextExpectedRevision: 0, position: 3 },
      { nextExpectedRevision: 2, position: 4 },
    ]);
    expect((await store.readAll()).map((e) => `${e.streamId}@${e.revision}:${e.metadata.eventId}`)).toEqual([
      'session-A@0:a0',
      'session-A@1:a1',
      'session-B@0:b0',
      'session-A@2:a2',
    ]);
  });

  it('a batch where one append conflicts: only that append fails (stream_revision_conflict, nothing of it written), the others land', async () => {
    await store.append('session-A', [testEvent('a0')], { expectedRevision: 'no_stream' });
    await store.append('session-C', [testEvent('c0', { v: 1 })], { expectedRevision: 'no_stream' });
    commits.length = 0;
    const outcomes = await settle([
      store.append('session-B', [testEvent('b0')], { expectedRevision: 'no_stream' }),
      // Stale: session-A is at 0.
      store.append('session-A', [testEvent('a-stale-1'), testEvent('a-stale-2')], { expectedRevision: 'no_stream' }),
      store.append('session-A', [testEvent('a1')], { expectedRevision: 0 }),
      // A retry of c0 with other data: an idempotency conflict, also alone.
      store.append('session-C', [testEvent('c0', { v: 2 })], { expectedRevision: 'any' }),
      // A plain retry of c0: acknowledged, not duplicated.
      store.append('session-C', [testEvent('c0', { v: 1 })], { expectedRevision: 'no_stream' }),
      store.append('session-D', [testEvent('d0')], { expectedRevision: 'stream_exists' }),
    ]);
    expect(outcomes.map(codeOf)).toEqual(['ok', 'stream_revision_conflict', 'ok', 'idempotency_conflict', 'ok', 'stream_revision_conflict']);
    expect(commits).toEqual([6]);
    expect((await store.readStream('session-A')).map((e) => e.metadata.eventId)).toEqual(['a0', 'a1']);
    expect((await store.readStream('session-B')).map((e) => e.metadata.eventId)).toEqual(['b0']);
    expect((await store.readStream('session-C')).map((e) => e.data)).toEqual([{ v: 1 }]);
    expect(await store.streamState('session-D')).toBe('no_stream');
    // No gap where the failed appends were: positions stay contiguous.
    expect((await store.readAll()).map((e) => e.position)).toEqual([1, 2, 3, 4]);
  });

  it('EST-07 in a group: an insert that fails in the middle of one append (a test trigger) rolls back that append only', async () => {
    raw(file, (db) => db.exec("CREATE TRIGGER test_fault BEFORE INSERT ON events WHEN NEW.event_id = 'x2' BEGIN SELECT RAISE(ABORT, 'injected fault'); END"));
    const outcomes = await settle([
      store.append('session-A', [testEvent('a0')], { expectedRevision: 'no_stream' }),
      store.append('session-X', [testEvent('x1'), testEvent('x2'), testEvent('x3')], { expectedRevision: 'no_stream' }),
      store.append('session-B', [testEvent('b0')], { expectedRevision: 'no_stream' }),
    ]);
    expect(outcomes.map(codeOf)).toEqual(['ok', 'storage_unavailable', 'ok']);
    expect(commits).toEqual([3]);
    expect(await store.streamState('session-X')).toBe('no_stream');
    expect((await store.readAll()).map((e) => e.metadata.eventId)).toEqual(['a0', 'b0']);
  });

  it('a group that cannot take the write lock fails as a whole with storage_unavailable, and writes nothing', async () => {
    await store.close();
    store = SqliteEventStore.open(file, { busyTimeoutMs: 50, onCommit: (appends) => commits.push(appends) });
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    let outcomes: PromiseSettledResult<unknown>[];
    try {
      outcomes = await settle([
        store.append('session-A', [testEvent('a0')], { expectedRevision: 'no_stream' }),
        store.append('session-B', [testEvent('b0')], { expectedRevision: 'no_stream' }),
      ]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(outcomes.map(codeOf)).toEqual(['storage_unavailable', 'storage_unavailable']);
    expect(commits).toEqual([]);
    expect(await store.readAll()).toEqual([]);
  });

  it('an append refused before any write (too large) fails alone and does not join the group', async () => {
    await store.close();
    store = SqliteEventStore.open(file, { maxAppendBytes: 1000, onCommit: (appends) => commits.push(appends) });
    const outcomes = await settle([
      store.append('session-A', [testEvent('a0')], { expectedRevision: 'no_stream' }),
      store.append('session-B', [testEvent('b0', { text: 'x'.repeat(1000) })], { expectedRevision: 'no_stream' }),
      store.append('session-C', [testEvent('c0')], { expectedRevision: 'no_stream' }),
    ]);
    expect(outcomes.map(codeOf)).toEqual(['ok', 'payload_too_large', 'ok']);
    expect(commits).toEqual([2]);
  });

  it('a promise settles only after the commit: nothing is acknowledged before the rows are readable by another connection', async () => {
    const seen: number[] = [];
    const appends = ['a', 'b', 'c'].map((id, i) =>
      store.append(`session-${id}`, [testEvent(id)], { expectedRevision: 'no_stream' }).then(() => {
        // Another connection sees only committed rows.
        raw(file, (db) => seen.push(Number(db.prepare('SELECT COUNT(*) FROM events').pluck().get())));
        return i;
      }),
    );
    await Promise.all(appends);
    expect(seen).toEqual([3, 3, 3]);
  });

  it('close() commits the appends already accepted before it closes the file', async () => {
    const pending = store.append('session-A', [testEvent('a0')], { expectedRevision: 'no_stream' });
    await store.close();
    expect(await pending).toEqual({ nextExpectedRevision: 0, position: 1 });
    store = SqliteEventStore.open(file);
    expect(await store.streamState('session-A')).toBe(0);
  });

  it('group commit off: every append is its own transaction', async () => {
    await store.close();
    store = SqliteEventStore.open(file, { groupCommit: false, onCommit: (appends) => commits.push(appends) });
    expect(store.connectionInfo().groupCommit).toBe(false);
    await Promise.all(['a', 'b', 'c'].map((id) => store.append(`session-${id}`, [testEvent(id)], { expectedRevision: 'no_stream' })));
    expect(commits).toEqual([1, 1, 1]);
  });
});

function raw(file: string, fn: (db: Database.Database) => void): void {
  const db = new Database(file);
  try {
    fn(db);
  } finally {
    db.close();
  }
}

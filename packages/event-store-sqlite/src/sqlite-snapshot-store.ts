import type Database from 'better-sqlite3';
import { StorageUnavailableError, type SnapshotStore, type StoredSnapshot } from '@oneclaw/core';

/** Schema migration 2 (appended to the event store's list): the latest snapshot per stream and projection. */
export const SNAPSHOTS_MIGRATION = `CREATE TABLE snapshots (
     stream_id   TEXT    NOT NULL,
     projection  TEXT    NOT NULL,
     version     INTEGER NOT NULL,
     revision    INTEGER NOT NULL,
     event_id    TEXT    NOT NULL,
     state       TEXT    NOT NULL,
     taken_at    TEXT    NOT NULL,
     PRIMARY KEY (stream_id, projection)
   ) STRICT;`;

interface SnapshotRow {
  readonly streamId: string;
  readonly projection: string;
  readonly version: number;
  readonly revision: number;
  readonly eventId: string;
  readonly state: string;
  readonly takenAt: string;
}

/**
 * Snapshots in the event store's own file, on its connection (`SqliteEventStore.snapshotStore()`).
 * A write stores the snapshot only if the `events` table holds its event id at its revision, in
 * the same statement: the checkpoint can never get ahead of the log (RELIABILITY SQL-04), even if
 * a caller got its revision wrong. Snapshots are a cache: losing one costs a replay, nothing more.
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(
    db: Database.Database,
    private readonly file: string,
    private readonly assertOpen: () => void,
  ) {
    this.statements = prepareStatements(db);
  }

  async read(streamId: string, projection: string): Promise<StoredSnapshot | undefined> {
    this.assertOpen();
    return this.run('read a snapshot from', () => this.statements.read.get(streamId, projection));
  }

  async write(snapshot: StoredSnapshot): Promise<boolean> {
    this.assertOpen();
    const { streamId, projection, version, revision, eventId, state, takenAt } = snapshot;
    const result = this.run('write a snapshot to', () => this.statements.write.run(streamId, projection, version, revision, eventId, state, takenAt));
    return result.changes > 0;
  }

  private run<T>(action: string, statement: () => T): T {
    try {
      return statement();
    } catch (error) {
      throw new StorageUnavailableError(`Cannot ${action} the event store '${this.file}': ${(error as Error).message}. Snapshots are optional: the session is replayed instead.`, {
        file: this.file,
        sqliteCode: (error as { code?: unknown }).code,
      });
    }
  }
}

function prepareStatements(db: Database.Database) {
  return {
    read: db.prepare<[string, string], SnapshotRow>(
      'SELECT stream_id AS streamId, projection, version, revision, event_id AS eventId, state, taken_at AS takenAt FROM snapshots WHERE stream_id = ? AND projection = ?',
    ),
    // INSERT ... SELECT with the log check as its WHERE: no row, no write (SQL-04). The WHERE also
    // keeps SQLite from reading ON CONFLICT as a join constraint.
    write: db.prepare<[string, string, number, number, string, string, string]>(
      `INSERT INTO snapshots (stream_id, projection, version, revision, event_id, state, taken_at)
       SELECT s.stream_id, s.projection, s.version, s.revision, s.event_id, s.state, s.taken_at
       FROM (SELECT ? AS stream_id, ? AS projection, ? AS version, ? AS revision, ? AS event_id, ? AS state, ? AS taken_at) AS s
       WHERE EXISTS (SELECT 1 FROM events e WHERE e.stream_id = s.stream_id AND e.revision = s.revision AND e.event_id = s.event_id)
       ON CONFLICT (stream_id, projection) DO UPDATE SET
         version = excluded.version, revision = excluded.revision, event_id = excluded.event_id, state = excluded.state, taken_at = excluded.taken_at`,
    ),
  };
}

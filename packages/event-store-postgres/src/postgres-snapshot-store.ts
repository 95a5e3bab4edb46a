import type pg from 'pg';
import type { SnapshotStore, StoredSnapshot } from '@oneclaw/core';
import { toStoreError, type StoreErrorContext } from './postgres-errors';

interface SnapshotRow {
  readonly stream_id: string;
  readonly projection: string;
  readonly version: number;
  readonly revision: string;
  readonly event_id: string;
  readonly state: string;
  readonly taken_at: string;
}

/**
 * Snapshots in the event store's own database and schema (`PostgresEventStore.snapshotStore()`),
 * so a replica loads a long session from its latest checkpoint instead of replaying every event.
 * A write stores the snapshot only if `events` holds its event id at its revision, in the same
 * statement: the checkpoint can never get ahead of the log (RELIABILITY SQL-04). Reads and writes
 * take no append lock. Snapshots are a cache: losing one costs a replay, nothing more.
 */
export class PostgresSnapshotStore implements SnapshotStore {
  private readonly sql: ReturnType<typeof statements>;

  constructor(
    private readonly pool: pg.Pool,
    quotedSchema: string,
    private readonly assertOpen: () => void,
    private readonly errorContext: StoreErrorContext,
  ) {
    this.sql = statements(quotedSchema);
  }

  async read(streamId: string, projection: string): Promise<StoredSnapshot | undefined> {
    this.assertOpen();
    const { rows } = await this.run('read a snapshot from', () => this.pool.query<SnapshotRow>(this.sql.read, [streamId, projection]));
    const row = rows[0];
    return (
      row && {
        streamId: row.stream_id,
        projection: row.projection,
        version: row.version,
        revision: Number(row.revision),
        eventId: row.event_id,
        state: row.state,
        takenAt: row.taken_at,
      }
    );
  }

  async write(snapshot: StoredSnapshot): Promise<boolean> {
    this.assertOpen();
    const { streamId, projection, version, revision, eventId, state, takenAt } = snapshot;
    const result = await this.run('write a snapshot to', () => this.pool.query(this.sql.write, [streamId, projection, version, revision, eventId, state, takenAt]));
    return (result.rowCount ?? 0) > 0;
  }

  private async run<T>(action: string, query: () => Promise<T>): Promise<T> {
    try {
      return await query();
    } catch (error) {
      throw toStoreError(error, action, this.errorContext);
    }
  }
}

function statements(q: string) {
  return {
    read: `SELECT stream_id, projection, version, revision, event_id, state, taken_at FROM ${q}.snapshots WHERE stream_id = $1 AND projection = $2`,
    // The log check is the INSERT's own WHERE: no such event, no row, no write (SQL-04).
    write: `INSERT INTO ${q}.snapshots (stream_id, projection, version, revision, event_id, state, taken_at)
            SELECT $1, $2, $3, $4, $5, $6, $7
            WHERE EXISTS (SELECT 1 FROM ${q}.events WHERE stream_id = $1 AND revision = $4 AND event_id = $5)
            ON CONFLICT (stream_id, projection) DO UPDATE SET
              version = excluded.version, revision = excluded.revision, event_id = excluded.event_id, state = excluded.state, taken_at = excluded.taken_at`,
  };
}

import Database from 'better-sqlite3';
import {
  DEFAULT_EVENT_STORE_LIMITS,
  OneClawError,
  StorageCorruptError,
  StorageUnavailableError,
  StreamRevisionConflictError,
  deserializeEvent,
  fingerprintOf,
  prepareAppend,
  resolveRetry,
  revisionMatches,
  type AppendOptions,
  type AppendResult,
  type EventEnvelope,
  type EventStore,
  type EventStoreLimits,
  type ExpectedRevision,
  type PreparedEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SerializedEvent,
  type StoredEventMatch,
  type StreamState,
} from '@oneclaw/core';
import { SNAPSHOTS_MIGRATION, SqliteSnapshotStore } from './sqlite-snapshot-store';
import { isSqliteError } from './is-sqlite-error';

export interface SqliteEventStoreOptions extends Partial<EventStoreLimits> {
  /** How long a writer waits for another process's write lock. Default 5000 (SQL-01). */
  readonly busyTimeoutMs?: number;
  /**
   * Open an existing store for reading only (audit, replay, a second process that must not
   * write). Appends fail with `StorageUnavailableError`; nothing is migrated.
   */
  readonly readonly?: boolean;
  /**
   * Group commit (default on): appends that arrive while the event loop is busy (the same tick,
   * or while an earlier commit blocked it) are written in one transaction with one fsync. Each
   * append is still checked on its own and fails alone; every caller's promise settles only after
   * the commit. `false` gives each append its own transaction and fsync (the old path, kept for
   * the benchmark's baseline).
   */
  readonly groupCommit?: boolean;
  /** Called after each commit that carried appends, with how many (the benchmark's group sizes). */
  readonly onCommit?: (appends: number) => void;
}

/** What the connection really runs with, read back from SQLite (SQL-01; handy for a startup log). */
export interface SqliteConnectionInfo {
  readonly file: string;
  readonly readonly: boolean;
  readonly journalMode: string;
  /** 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. */
  readonly synchronous: number;
  readonly busyTimeoutMs: number;
  readonly foreignKeys: boolean;
  readonly schemaVersion: number;
  readonly groupCommit: boolean;
}

/**
 * Migrations by index: MIGRATIONS[v] takes schema version v to v + 1. Never edit a shipped one;
 * append a new one. The version lives in `PRAGMA user_version`.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE events (
     position    INTEGER PRIMARY KEY AUTOINCREMENT,
     stream_id   TEXT    NOT NULL,
     revision    INTEGER NOT NULL,
     event_id    TEXT    NOT NULL,
     type        TEXT    NOT NULL,
     data        TEXT    NOT NULL,
     metadata    TEXT    NOT NULL,
     UNIQUE (stream_id, revision),
     UNIQUE (stream_id, event_id)
   ) STRICT;`,
  SNAPSHOTS_MIGRATION,
];
const SCHEMA_VERSION = MIGRATIONS.length;
const EVENT_COLUMNS = ['position', 'stream_id', 'revision', 'event_id', 'type', 'data', 'metadata'];
const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/** Appends per group commit at most: bounds how long one commit holds the event loop. */
const MAX_GROUP = 256;

type EventRow = SerializedEvent;
type IdMatchRow = Pick<EventRow, 'position' | 'revision' | 'type' | 'data'>;

/** An append waiting for the next group commit. */
interface PendingAppend {
  readonly streamId: string;
  readonly prepared: readonly PreparedEvent[];
  readonly expected: ExpectedRevision;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The embedded, default event store: one SQLite file in WAL mode with `synchronous=FULL`, so an
 * acknowledged append survives an application crash and (where the disk honours fsync) a power
 * loss (RELIABILITY.md B3). Validation, retry detection and revision checks are the core's
 * shared functions, so it behaves exactly like `InMemoryEventStore`.
 *
 * better-sqlite3 is synchronous: a commit blocks the event loop for one fsync. That keeps the
 * check-then-insert in a single `BEGIN IMMEDIATE` transaction with nothing interleaved. With group
 * commit (the default; docs/adr, "group commit") appends queue until the event loop's check phase and are written
 * together: one `BEGIN IMMEDIATE`, a savepoint and the same checks per append, one `COMMIT` (one
 * fsync); a conflict rolls back to that append's savepoint and fails only that append.
 */
export class SqliteEventStore implements EventStore {
  private closed = false;
  private readonly limits: EventStoreLimits;
  private readonly appendTransaction: (streamId: string, prepared: readonly PreparedEvent[], expected: ExpectedRevision) => AppendResult;
  private readonly groupTransaction: (batch: readonly PendingAppend[]) => (AppendResult | { readonly error: unknown })[];
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly groupCommit: boolean;
  private readonly onCommit: ((appends: number) => void) | undefined;
  private queue: PendingAppend[] = [];
  private flushScheduled = false;

  private constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    options: SqliteEventStoreOptions,
  ) {
    const { maxAppendBytes = DEFAULT_EVENT_STORE_LIMITS.maxAppendBytes } = options;
    this.limits = { maxAppendBytes };
    this.statements = prepareStatements(db);
    const transaction = db.transaction(this.appendInTransaction.bind(this));
    // IMMEDIATE takes the write lock before the revision check: a deferred transaction would
    // read, then fail to upgrade with SQLITE_BUSY that no busy_timeout can wait out (SQL-06).
    this.appendTransaction = transaction.immediate.bind(transaction);
    this.groupCommit = options.groupCommit ?? true;
    this.onCommit = options.onCommit;
    // Nested in the group's transaction, better-sqlite3 runs `transaction` as a SAVEPOINT: a
    // throw rolls back that append only.
    const group = db.transaction((batch: readonly PendingAppend[]) =>
      batch.map((p): AppendResult | { readonly error: unknown } => {
        try {
          return transaction(p.streamId, p.prepared, p.expected);
        } catch (error) {
          // An I/O error or a full disk may have rolled the whole transaction back: then nothing
          // of the group is written, and every append of it fails (the caller below).
          if (!db.inTransaction) throw error;
          return { error };
        }
      }),
    );
    this.groupTransaction = group.immediate.bind(group);
  }

  /**
   * Opens (creating and migrating if new) the store in `filePath`. Refuses a damaged file, another
   * application's database or a newer schema with `StorageCorruptError`, without writing to it.
   */
  static open(filePath: string, options: SqliteEventStoreOptions = {}): SqliteEventStore {
    const readonly = options.readonly ?? false;
    let db: Database.Database;
    try {
      db = new Database(filePath, { readonly, fileMustExist: readonly });
    } catch (error) {
      throw new StorageUnavailableError(`Cannot open the event store '${filePath}': ${(error as Error).message}. Check that the directory exists and is writable.`, {
        file: filePath,
      });
    }
    try {
      // Connection settings first: they are per connection and write nothing to the file.
      db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))}`);
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      const version = checkFile(db, filePath);
      if (!readonly) {
        // WAL is recorded in the file header, so it is set only once the file is known to be ours.
        const mode = db.pragma('journal_mode = WAL', { simple: true });
        if (mode !== 'wal') {
          // SQLite keeps the old mode where WAL cannot work (e.g. a file system without shared memory).
          throw new StorageUnavailableError(`The event store '${filePath}' cannot use WAL journaling (got '${String(mode)}'). Put the file on a local disk.`, {
            file: filePath,
            journalMode: mode,
          });
        }
        if (version < SCHEMA_VERSION) migrate(db);
      } else if (version < SCHEMA_VERSION) {
        throw new StorageUnavailableError(`The event store '${filePath}' is at schema version ${version}, older than ${SCHEMA_VERSION}. Open it once read-write to migrate it.`, {
          file: filePath,
          schemaVersion: version,
        });
      }
      return new SqliteEventStore(db, filePath, options);
    } catch (error) {
      db.close();
      throw toStorageError(error, filePath, 'open');
    }
  }

  async append(streamId: string, events: readonly EventEnvelope[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    const expected = options?.expectedRevision;
    const prepared = prepareAppend(streamId, events, expected, this.limits);
    if (!this.groupCommit) return this.appendAlone(streamId, prepared, expected);
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ streamId, prepared, expected, resolve, reject });
      if (this.flushScheduled) return;
      this.flushScheduled = true;
      // The check phase runs after every I/O callback of this loop iteration: the appends of all
      // the requests and replies that arrived together (or piled up during the last commit) join.
      setImmediate(() => this.flush());
    });
  }

  private appendAlone(streamId: string, prepared: readonly PreparedEvent[], expected: ExpectedRevision): AppendResult {
    try {
      const result = this.appendTransaction(streamId, prepared, expected);
      this.onCommit?.(1);
      return result;
    } catch (error) {
      throw toStorageError(error, this.file, `append to '${streamId}' in`);
    }
  }

  /** Commits the queued appends, at most MAX_GROUP per transaction, and settles their promises. */
  private flush(): void {
    this.flushScheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.length <= MAX_GROUP ? this.queue : this.queue.slice(0, MAX_GROUP);
      this.queue = this.queue.length <= MAX_GROUP ? [] : this.queue.slice(MAX_GROUP);
      this.commitGroup(batch);
    }
  }

  private commitGroup(batch: readonly PendingAppend[]): void {
    if (batch.length === 1) {
      // Alone in its group: no savepoint needed.
      const only = batch[0] as PendingAppend;
      try {
        only.resolve(this.appendAlone(only.streamId, only.prepared, only.expected));
      } catch (error) {
        only.reject(error);
      }
      return;
    }
    let outcomes: (AppendResult | { readonly error: unknown })[];
    try {
      outcomes = this.groupTransaction(batch);
    } catch (error) {
      // BEGIN, an append's I/O or the COMMIT failed: the whole group was rolled back.
      const failure = toStorageError(error, this.file, 'append to');
      for (const p of batch) p.reject(failure);
      return;
    }
    this.onCommit?.(batch.length);
    // Settled only now, after the COMMIT (and its fsync) returned.
    batch.forEach((p, i) => {
      const outcome = outcomes[i] as AppendResult | { readonly error: unknown };
      if ('error' in outcome) p.reject(toStorageError(outcome.error, this.file, `append to '${p.streamId}' in`));
      else p.resolve(outcome);
    });
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<readonly RecordedEvent[]> {
    this.assertOpen();
    try {
      // Raw rows (arrays) without the stream id, which the caller already has: about 40% less
      // time per read of a long stream than one object per row (F4, docs/benchmarks.md).
      return this.statements.readStream
        .all(streamId, nonNegative(options.fromRevision), limitOf(options.maxCount))
        .map(([position, revision, type, data, metadata]) => deserializeEvent({ streamId, revision, position, type, data, metadata }));
    } catch (error) {
      throw toStorageError(error, this.file, 'read');
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<readonly RecordedEvent[]> {
    this.assertOpen();
    return this.read(() => this.statements.readAll.all(nonNegative(options.fromPosition), limitOf(options.maxCount)));
  }

  async streamState(streamId: string): Promise<StreamState> {
    this.assertOpen();
    try {
      return this.currentState(streamId);
    } catch (error) {
      throw toStorageError(error, this.file, 'read');
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Appends already accepted are committed (or failed) before the file closes.
    this.flush();
    this.closed = true;
    this.db.close();
  }

  /** Projection snapshots in this store's file, on its connection (sqlite-snapshot-store.ts). */
  snapshotStore(): SqliteSnapshotStore {
    this.assertOpen();
    return new SqliteSnapshotStore(this.db, this.file, () => this.assertOpen());
  }

  connectionInfo(): SqliteConnectionInfo {
    this.assertOpen();
    const pragma = (name: string): unknown => this.db.pragma(name, { simple: true });
    return {
      file: this.file,
      readonly: this.db.readonly,
      journalMode: String(pragma('journal_mode')),
      synchronous: Number(pragma('synchronous')),
      busyTimeoutMs: Number(pragma('busy_timeout')),
      foreignKeys: Number(pragma('foreign_keys')) === 1,
      schemaVersion: Number(pragma('user_version')),
      groupCommit: this.groupCommit,
    };
  }

  /** Runs inside BEGIN IMMEDIATE; any throw rolls the whole batch back (EST-07). */
  private appendInTransaction(streamId: string, prepared: readonly PreparedEvent[], expected: ExpectedRevision): AppendResult {
    const found = prepared.map((event): StoredEventMatch | undefined => {
      const row = this.statements.byEventId.get(streamId, event.eventId);
      // The fingerprint is recomputed rather than stored: retries are rare, disk is not free.
      return row && { revision: row.revision, position: row.position, fingerprint: fingerprintOf(row.type, JSON.parse(row.data)) };
    });
    const retry = resolveRetry(streamId, prepared, found);
    if (retry.kind === 'duplicate') return retry.result;

    const actual = this.currentState(streamId);
    if (!revisionMatches(expected, actual)) throw new StreamRevisionConflictError(streamId, expected, actual);

    const first = actual === 'no_stream' ? 0 : actual + 1;
    let position = 0;
    prepared.forEach((event, i) => {
      const result = this.statements.insert.run(streamId, first + i, event.eventId, event.type, event.data, event.metadata);
      position = Number(result.lastInsertRowid);
    });
    return { nextExpectedRevision: first + prepared.length - 1, position };
  }

  private currentState(streamId: string): StreamState {
    const revision = this.statements.lastRevision.get(streamId);
    return revision === null || revision === undefined ? 'no_stream' : revision;
  }

  private read(query: () => EventRow[]): readonly RecordedEvent[] {
    try {
      return query().map(deserializeEvent);
    } catch (error) {
      throw toStorageError(error, this.file, 'read');
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageUnavailableError(`The event store '${this.file}' is closed.`, { file: this.file });
  }
}

function prepareStatements(db: Database.Database) {
  const columns = 'position, stream_id AS streamId, revision, type, data, metadata';
  return {
    byEventId: db.prepare<[string, string], IdMatchRow>('SELECT position, revision, type, data FROM events WHERE stream_id = ? AND event_id = ?'),
    lastRevision: db.prepare<[string], number | null>('SELECT MAX(revision) FROM events WHERE stream_id = ?').pluck(),
    insert: db.prepare<[string, number, string, string, string, string]>('INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
    readStream: db
      .prepare<[string, number, number], [number, number, string, string, string]>(
        'SELECT position, revision, type, data, metadata FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?',
      )
      .raw(),
    readAll: db.prepare<[number, number], EventRow>(`SELECT ${columns} FROM events WHERE position >= ? ORDER BY position LIMIT ?`),
  };
}

/** Refuses anything that is not a healthy OneClaw store, before a single byte is written (SQL-09). */
function checkFile(db: Database.Database, file: string): number {
  const problems = db.pragma('quick_check', { simple: false }) as { quick_check: string }[];
  if (problems.length !== 1 || problems[0]?.quick_check !== 'ok') {
    throw new StorageCorruptError(
      `The event store '${file}' failed SQLite's integrity check (${(problems[0]?.quick_check ?? 'no result').replace(/\n/g, '; ')}). ` +
        `OneClaw will not serve from a damaged file: restore it from a backup, or salvage it with the sqlite3 shell's '.recover' into a new file.`,
      { file, problems: problems.slice(0, 5).map((p) => p.quick_check) },
    );
  }
  // One statement, so one snapshot: another process may create and migrate a new file while we
  // look, and a version read before its commit with tables read after it would look foreign.
  const schema = db
    .prepare(
      `SELECT (SELECT user_version FROM pragma_user_version) AS version,
              (SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name)) AS tables,
              (SELECT group_concat(name, ',') FROM pragma_table_info('events')) AS eventColumns`,
    )
    .get() as { version: number; tables: string | null; eventColumns: string | null };
  const { version } = schema;
  if (version > SCHEMA_VERSION) {
    throw new StorageCorruptError(
      `The event store '${file}' has schema version ${version}, newer than this build understands (${SCHEMA_VERSION}). ` +
        `It was left untouched: run a newer OneClaw, or restore a backup made by this version.`,
      { file, schemaVersion: version, supported: SCHEMA_VERSION },
    );
  }
  const tables = schema.tables ? schema.tables.split(',') : [];
  const eventColumns = schema.eventColumns ? schema.eventColumns.split(',') : [];
  const foreign = version === 0 ? tables.length > 0 : eventColumns.length !== EVENT_COLUMNS.length || EVENT_COLUMNS.some((c) => !eventColumns.includes(c));
  if (foreign) {
    throw new StorageCorruptError(
      `'${file}' is a SQLite database but not a OneClaw event store (schema version ${version}, tables: ${tables.join(', ') || 'none'}). ` +
        `It was left untouched: point the event store at a new file or at an existing OneClaw store.`,
      { file, schemaVersion: version, tables },
    );
  }
  return version;
}

/** All pending migrations in one transaction: a crash leaves the old schema or the new one (SQL-10). */
function migrate(db: Database.Database): void {
  db.transaction(() => {
    // Re-read under the write lock: another process may have migrated since we looked.
    const from = Number(db.pragma('user_version', { simple: true }));
    if (from >= SCHEMA_VERSION) return;
    for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v] as string);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

const CORRUPT_CODES = /^SQLITE_(CORRUPT|NOTADB)/;

/**
 * Typed errors pass through; SQLite's become `StorageCorruptError` or `StorageUnavailableError`
 * (read-only, full, I/O error, locked past busy_timeout, a trigger's abort...). Either way the
 * transaction was rolled back, so nothing was written. Programming errors stay as they are.
 */
function toStorageError(error: unknown, file: string, action: string): unknown {
  if (error instanceof OneClawError || !isSqliteError(error)) return error;
  const details = { file, sqliteCode: error.code };
  if (CORRUPT_CODES.test(error.code)) {
    return new StorageCorruptError(
      `Cannot ${action} the event store '${file}': ${error.message} (${error.code}). The file is damaged or not a database: restore it from a backup or point the store at a new file.`,
      details,
    );
  }
  return new StorageUnavailableError(
    `Cannot ${action} the event store '${file}': ${error.message} (${error.code}). Nothing was written. Check free disk space, file permissions, and that no other process holds the database locked.`,
    details,
  );
}

function nonNegative(value: number | undefined): number {
  return Math.max(0, Math.trunc(value ?? 0));
}

/** SQLite reads a negative LIMIT as "no limit". */
function limitOf(maxCount: number | undefined): number {
  return maxCount === undefined ? -1 : Math.max(0, Math.trunc(maxCount));
}

import pg from 'pg';
import {
  DEFAULT_EVENT_STORE_LIMITS,
  IdempotencyConflictError,
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
  type StoredEventMatch,
  type StreamState,
} from '@oneclaw/core';
import { PostgresConfigError, checkPostgresUrl, describeTarget, toStoreError } from './postgres-errors';
import { migrate, quoteSchema } from './postgres-migrations';
import { PostgresSnapshotStore } from './postgres-snapshot-store';

export interface PostgresEventStoreOptions extends Partial<EventStoreLimits> {
  /**
   * The schema holding the store's tables (created if missing). Lets several deployments, or
   * test runs, share one database. Default `oneclaw`.
   */
  readonly schema?: string;
  /** Connections this process keeps open at most (one per concurrent append or read). Default 10. */
  readonly poolSize?: number;
  /** How long to wait for a new connection before `storage_unavailable` (reason `timeout`). Default 10000. */
  readonly connectTimeoutMs?: number;
}

/** What the store really runs with, read back from the server (for a startup log and tests). */
export interface PostgresConnectionInfo {
  /** `host:port/database`, without credentials. */
  readonly target: string;
  readonly schema: string;
  readonly schemaVersion: number;
  readonly serverVersion: string;
  /** `on` (the default) makes an acknowledged append durable across a server crash. */
  readonly synchronousCommit: string;
  readonly poolSize: number;
}

const DEFAULT_SCHEMA = 'oneclaw';
const DEFAULT_POOL_SIZE = 10;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

interface EventRow {
  readonly position: string;
  readonly stream_id: string;
  readonly revision: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}
/** A stored row under one of the batch's ids, or (event_id null) the stream's last revision, null for no stream. */
type IdMatchRow = { readonly event_id: string | null; readonly position: string; readonly revision: string | null; readonly type: string; readonly data: string };

/**
 * The `EventStore` port on PostgreSQL (`pg`), for several server replicas on one database. It
 * passes the same contract suite as the in-memory and SQLite stores; validation, retry detection
 * and revision checks are the core's shared functions.
 *
 * One append is one transaction that first locks the single row of `event_positions`. That lock
 * serializes appends across every connection and replica, so (ADR 0014):
 * - the revision check and the insert see the stream as it is (no lost update, no second writer
 *   at one revision; the unique constraints back this up);
 * - positions are handed out without gaps and become visible in order: an append that took
 *   position 11 has committed before any append can take 12. A follower that polls
 *   `readAll({ fromPosition })` and remembers the last position therefore never skips an event,
 *   which a plain sequence would not guarantee (sequence values are taken at insert time, and a
 *   transaction that took 11 may commit after one that took 12).
 *
 * Durability is PostgreSQL's: with `synchronous_commit = on` (the default) an append is
 * acknowledged only after its commit record is flushed, so it survives a crash of the server.
 */
export class PostgresEventStore implements EventStore {
  private closed = false;
  private readonly limits: EventStoreLimits;
  private readonly sql: ReturnType<typeof statements>;
  private readonly errorContext: { target: string; secrets: string[] };

  private constructor(
    private readonly pool: pg.Pool,
    /** `host:port/database`, without credentials, for messages. */
    readonly target: string,
    readonly schema: string,
    private readonly poolSize: number,
    secrets: string[],
    options: PostgresEventStoreOptions,
  ) {
    this.limits = { maxAppendBytes: options.maxAppendBytes ?? DEFAULT_EVENT_STORE_LIMITS.maxAppendBytes };
    this.sql = statements(quoteSchema(schema));
    this.errorContext = { target, secrets };
  }

  /**
   * Connects, creates the schema if it is missing and migrates it. Throws `PostgresConfigError`
   * (`invalid_config`) for a URL or options that cannot be used, `StorageUnavailableError` (with
   * `details.reason`, see `PostgresFailureReason`) when PostgreSQL cannot be reached or refuses
   * the user, and `StorageCorruptError` for a newer schema or a schema with other tables.
   * No message contains the URL's password.
   */
  static async connect(url: string, options: PostgresEventStoreOptions = {}): Promise<PostgresEventStore> {
    checkPostgresUrl(url);
    const schema = options.schema ?? DEFAULT_SCHEMA;
    if (!SCHEMA_NAME.test(schema)) {
      throw new PostgresConfigError(`The PostgreSQL schema name '${schema}' is not valid: use lower-case letters, digits and '_', starting with a letter or '_'.`, { schema });
    }
    const poolSize = positiveInt('poolSize', options.poolSize, DEFAULT_POOL_SIZE);
    const connectTimeoutMs = positiveInt('connectTimeoutMs', options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS);
    const target = describeTarget(url);
    const secrets = secretsOf(url);
    const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: connectTimeoutMs, application_name: 'oneclaw', keepAlive: true });
    // An idle connection that breaks (server restarted) emits 'error' on the pool; without a
    // listener that would crash the process. The pool drops the connection and opens a new one
    // on the next call, which is where the caller learns about an outage.
    pool.on('error', () => undefined);
    // The same for a connection in use: between two statements of an append it has no query to
    // reject, so it emits 'error' on the client instead; the next statement then fails (typed).
    pool.on('connect', (client) => client.on('error', () => undefined));
    const store = new PostgresEventStore(pool, target, schema, poolSize, secrets, options);
    try {
      await store.withClient((client) => migrate(client, schema, target));
      return store;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw toStoreError(error, 'open the event store in', store.errorContext);
    }
  }

  async append(streamId: string, events: readonly EventEnvelope[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    const expected = options?.expectedRevision;
    const prepared = prepareAppend(streamId, events, expected, this.limits);
    try {
      return await this.withClient((client) => this.appendInTransaction(client, streamId, prepared, expected));
    } catch (error) {
      throw toStoreError(error, `append to '${streamId}' in`, { ...this.errorContext, isAppend: true });
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<readonly RecordedEvent[]> {
    this.assertOpen();
    return this.read(this.sql.readStream, [streamId, nonNegative(options.fromRevision), limitOf(options.maxCount)]);
  }

  async readAll(options: ReadAllOptions = {}): Promise<readonly RecordedEvent[]> {
    this.assertOpen();
    return this.read(this.sql.readAll, [nonNegative(options.fromPosition), limitOf(options.maxCount)]);
  }

  async streamState(streamId: string): Promise<StreamState> {
    this.assertOpen();
    try {
      return await this.currentState(this.pool, streamId);
    } catch (error) {
      throw toStoreError(error, 'read', this.errorContext);
    }
  }

  /** Snapshots kept in this store's schema, on its pool (checked against its events, SQL-04). */
  snapshotStore(): PostgresSnapshotStore {
    return new PostgresSnapshotStore(this.pool, quoteSchema(this.schema), () => this.assertOpen(), this.errorContext);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  async connectionInfo(): Promise<PostgresConnectionInfo> {
    this.assertOpen();
    try {
      const { rows } = await this.pool.query<{ server_version: string; synchronous_commit: string; version: number }>(
        `SELECT current_setting('server_version') AS server_version, current_setting('synchronous_commit') AS synchronous_commit,
                (SELECT max(version)::int FROM ${quoteSchema(this.schema)}.schema_migrations) AS version`,
      );
      const row = rows[0] as (typeof rows)[number];
      return {
        target: this.target,
        schema: this.schema,
        schemaVersion: row.version,
        serverVersion: row.server_version,
        synchronousCommit: row.synchronous_commit,
        poolSize: this.poolSize,
      };
    } catch (error) {
      throw toStoreError(error, 'read', this.errorContext);
    }
  }

  /** One transaction; any throw rolls the whole batch back (EST-07). */
  private async appendInTransaction(client: pg.PoolClient, streamId: string, prepared: readonly PreparedEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    await client.query('BEGIN');
    try {
      const result = await this.appendLocked(client, streamId, prepared, expected);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A broken connection cannot roll back; the server does when it notices.
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  private async appendLocked(client: pg.PoolClient, streamId: string, prepared: readonly PreparedEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    // The append lock, taken first: every statement after it sees every earlier append committed.
    const locked = await client.query<{ last_position: string }>(this.sql.lockPositions);
    const lastPosition = Number(locked.rows[0]?.last_position);

    const ids = prepared.map((e) => e.eventId);
    // One round trip while holding the lock: the rows stored under the batch's ids, and one
    // more row (event_id NULL) with the stream's last revision.
    const { rows } = await client.query<IdMatchRow>(this.sql.idsAndLastRevision, [streamId, ids]);
    const byId = new Map(rows.flatMap((row) => (row.event_id === null ? [] : [[row.event_id, row] as const])));
    const found = prepared.map((event): StoredEventMatch | undefined => {
      const row = byId.get(event.eventId);
      // The fingerprint is recomputed rather than stored: retries are rare, disk is not free.
      return row && { revision: Number(row.revision), position: Number(row.position), fingerprint: fingerprintOf(row.type, JSON.parse(row.data)) };
    });
    const retry = resolveRetry(streamId, prepared, found);
    if (retry.kind === 'duplicate') return retry.result;

    const lastRevision = rows.find((row) => row.event_id === null)?.revision;
    const actual: StreamState = lastRevision === null || lastRevision === undefined ? 'no_stream' : Number(lastRevision);
    if (!revisionMatches(expected, actual)) throw new StreamRevisionConflictError(streamId, expected, actual);

    const first = actual === 'no_stream' ? 0 : actual + 1;
    const last = lastPosition + prepared.length;
    await client.query(this.sql.insert, [lastPosition, streamId, first, ids, prepared.map((e) => e.type), prepared.map((e) => e.data), prepared.map((e) => e.metadata), last]);
    return { nextExpectedRevision: first + prepared.length - 1, position: last };
  }

  private async currentState(client: pg.Pool, streamId: string): Promise<StreamState> {
    const { rows } = await client.query<{ revision: string | null }>(this.sql.lastRevision, [streamId]);
    const revision = rows[0]?.revision;
    return revision === null || revision === undefined ? 'no_stream' : Number(revision);
  }

  private async read(text: string, values: unknown[]): Promise<readonly RecordedEvent[]> {
    try {
      const { rows } = await this.pool.query<EventRow>(text, values);
      return rows.map((row) =>
        deserializeEvent({ streamId: row.stream_id, revision: Number(row.revision), position: Number(row.position), type: row.type, data: row.data, metadata: row.metadata }),
      );
    } catch (error) {
      throw toStoreError(error, 'read', this.errorContext);
    }
  }

  /** A pooled connection for a few statements; one that failed is discarded, not reused. */
  private async withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      const result = await work(client);
      client.release();
      return result;
    } catch (error) {
      // A typed refusal (conflict, idempotency) leaves a healthy connection; anything else may not.
      client.release(isDriverError(error));
      throw error;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageUnavailableError(`The event store at ${this.target} is closed.`, { target: this.target });
  }
}

function statements(q: string) {
  const columns = 'position, stream_id, revision, type, data, metadata';
  return {
    lockPositions: `SELECT last_position FROM ${q}.event_positions FOR UPDATE`,
    idsAndLastRevision: `SELECT event_id, position, revision, type, data FROM ${q}.events WHERE stream_id = $1 AND event_id = ANY($2::text[])
                         UNION ALL
                         SELECT NULL, NULL, max(revision), NULL, NULL FROM ${q}.events WHERE stream_id = $1`,
    lastRevision: `SELECT max(revision) AS revision FROM ${q}.events WHERE stream_id = $1`,
    // One statement for the batch and the counter: positions last+1.., revisions first...
    insert: `WITH batch AS (
               INSERT INTO ${q}.events (position, stream_id, revision, event_id, type, data, metadata)
               SELECT $1::bigint + n, $2, $3::bigint + n - 1, e, t, d, m
               FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS x(e, t, d, m, n)
             )
             UPDATE ${q}.event_positions SET last_position = $8`,
    readStream: `SELECT ${columns} FROM ${q}.events WHERE stream_id = $1 AND revision >= $2 ORDER BY revision LIMIT $3`,
    readAll: `SELECT ${columns} FROM ${q}.events WHERE position >= $1 ORDER BY position LIMIT $2`,
  };
}

/** The password of a URL, raw and decoded, and the URL itself: what a driver message might quote. */
function secretsOf(url: string): string[] {
  const out = [url];
  try {
    const parsed = new URL(url);
    const passwords = [parsed.password, parsed.searchParams.get('password') ?? ''];
    for (const password of passwords) {
      if (password) out.push(password, decodeURIComponent(password));
    }
  } catch {
    // checkPostgresUrl has refused anything that is not a URL.
  }
  return out.filter((s) => s.length > 0);
}

function isDriverError(error: unknown): boolean {
  return !(error instanceof StreamRevisionConflictError || error instanceof IdempotencyConflictError);
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new PostgresConfigError(`The PostgreSQL store option ${name}=${String(value)} is not valid: use a whole number of at least 1.`, { [name]: value });
  return value;
}

function nonNegative(value: number | undefined): number {
  return Math.max(0, Math.trunc(value ?? 0));
}

/** PostgreSQL reads LIMIT NULL as "no limit". */
function limitOf(maxCount: number | undefined): number | null {
  return maxCount === undefined ? null : Math.max(0, Math.trunc(maxCount));
}

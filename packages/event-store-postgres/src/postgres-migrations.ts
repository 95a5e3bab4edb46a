import { StorageCorruptError } from '@oneclaw/core';
import type { PoolClient } from 'pg';

/**
 * Migrations by version: MIGRATIONS[v - 1] takes the schema from version v - 1 to v. Never edit
 * a shipped one; append a new one. `$schema` is replaced by the quoted schema name.
 *
 * - `events`: one row per event. `position` is the global order (1, 2, 3, ... without gaps,
 *   allocated under the append lock, ADR 0014); `created_at` is the server's commit-time clock,
 *   for operators only (the domain's time is in the metadata). Data and metadata are kept as the
 *   exact JSON text the core serialized, not `jsonb`, which would reorder keys.
 * - `event_positions`: one row holding the last position handed out. Every append locks it first
 *   (`SELECT ... FOR UPDATE`), which makes appends commit in position order.
 * - `snapshots` (version 2): the latest checkpoint per stream and projection
 *   (`PostgresSnapshotStore`); a cache of the events, never read by an append.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE $schema.events (
     position    bigint      PRIMARY KEY,
     stream_id   text        NOT NULL,
     revision    bigint      NOT NULL,
     event_id    text        NOT NULL,
     type        text        NOT NULL,
     data        text        NOT NULL,
     metadata    text        NOT NULL,
     created_at  timestamptz NOT NULL DEFAULT now(),
     UNIQUE (stream_id, revision),
     UNIQUE (stream_id, event_id)
   );
   CREATE TABLE $schema.event_positions (
     singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
     last_position bigint  NOT NULL
   );
   INSERT INTO $schema.event_positions (last_position) VALUES (0);`,
  `CREATE TABLE $schema.snapshots (
     stream_id   text    NOT NULL,
     projection  text    NOT NULL,
     version     integer NOT NULL,
     revision    bigint  NOT NULL,
     event_id    text    NOT NULL,
     state       text    NOT NULL,
     taken_at    text    NOT NULL,
     PRIMARY KEY (stream_id, projection)
   );`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Quotes a schema name checked by `checkSchemaName`. */
export function quoteSchema(schema: string): string {
  return `"${schema}"`;
}

/** A lock key per schema, so replicas starting together migrate one at a time. */
const MIGRATION_LOCK = `SELECT pg_advisory_xact_lock(hashtext('oneclaw-migrate:' || $1))`;

async function inTransaction<T>(client: PoolClient, schema: string, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query(MIGRATION_LOCK, [schema]);
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function currentVersion(client: PoolClient, q: string): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>(`SELECT max(version)::int AS version FROM ${q}.schema_migrations`);
  return rows[0]?.version ?? 0;
}

/**
 * Brings the store's schema up to `SCHEMA_VERSION`, each migration in its own transaction under
 * an advisory lock (a crash leaves the old version or the new one; several replicas starting at
 * once apply each migration once). Refuses, without writing, a schema that is newer than this
 * build or that holds tables that are not ours. Returns the version now in place.
 */
export async function migrate(client: PoolClient, schema: string, target: string): Promise<number> {
  const q = quoteSchema(schema);
  const where = `the PostgreSQL store at ${target} (schema ${schema})`;
  await inTransaction(client, schema, async () => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${q}`);
    const { rows } = await client.query<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [schema]);
    const tables = rows.map((r) => r.name);
    if (!tables.includes('schema_migrations') && tables.length > 0) {
      throw new StorageCorruptError(
        `The schema '${schema}' of ${where} holds tables that are not a OneClaw store (${tables.join(', ')}). ` +
          `It was left untouched: set ONECLAW_POSTGRES_SCHEMA to a schema of its own, or point ONECLAW_POSTGRES_URL at another database.`,
        { schema, tables, reason: 'foreign_schema' },
      );
    }
    await client.query(`CREATE TABLE IF NOT EXISTS ${q}.schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  });
  for (let version = 1; version <= SCHEMA_VERSION; version++) {
    await inTransaction(client, schema, async () => {
      // Read under the lock: another replica may have migrated since we looked.
      const current = await currentVersion(client, q);
      if (current > SCHEMA_VERSION) throw schemaTooNew(where, schema, current);
      if (current >= version) return;
      await client.query((MIGRATIONS[version - 1] as string).replaceAll('$schema', q));
      await client.query(`INSERT INTO ${q}.schema_migrations (version) VALUES ($1)`, [version]);
    });
  }
  const version = await currentVersion(client, q);
  if (version > SCHEMA_VERSION) throw schemaTooNew(where, schema, version);
  return version;
}

function schemaTooNew(where: string, schema: string, version: number): StorageCorruptError {
  return new StorageCorruptError(
    `${where} has schema version ${version}, newer than this build understands (${SCHEMA_VERSION}). ` +
      `It was left untouched: run the newer OneClaw on every replica, or restore a backup made by this version.`,
    { schema, schemaVersion: version, supported: SCHEMA_VERSION, reason: 'schema_too_new' },
  );
}

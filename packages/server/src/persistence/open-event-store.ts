import path from 'node:path';
import type { EventStore } from '@oneclaw/core';
import { KurrentDbEventStore } from '@oneclaw/event-store-kurrentdb';
import { PostgresEventStore } from '@oneclaw/event-store-postgres';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import type { ServerConfig } from '../server-config';
import { ensureDataDir } from './data-dir';

/**
 * The store the config names: PostgreSQL or KurrentDB when one is configured (never both: the
 * config refuses that), else one SQLite file in the data directory.
 */
export async function openEventStore(config: ServerConfig): Promise<EventStore> {
  if (config.postgres) {
    const { url, poolSize, schema } = config.postgres;
    return PostgresEventStore.connect(url, { maxAppendBytes: config.maxAppendBytes, poolSize, schema });
  }
  if (config.kurrentDbConnectionString) {
    return KurrentDbEventStore.connect(config.kurrentDbConnectionString, { maxAppendBytes: config.maxAppendBytes });
  }
  ensureDataDir(config.dataDir);
  return SqliteEventStore.open(path.join(config.dataDir, 'events.db'), { maxAppendBytes: config.maxAppendBytes });
}

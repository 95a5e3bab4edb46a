import path from 'node:path';
import type { EventStore } from '@oneclaw/core';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import type { ServerConfig } from '../server-config';
import { ensureDataDir } from './data-dir';

/**
 * The store the config names: PostgreSQL or KurrentDB when one is configured (never both: the
 * config refuses that), else one SQLite file in the data directory. The PostgreSQL and KurrentDB
 * clients are loaded only when named: the KurrentDB client alone (gRPC, protobuf) is megabytes of
 * code that a server on SQLite would otherwise keep in its heap (docs/memory.md).
 */
export async function openEventStore(config: ServerConfig): Promise<EventStore> {
  if (config.postgres) {
    const { url, poolSize, schema } = config.postgres;
    const { PostgresEventStore } = require('@oneclaw/event-store-postgres') as typeof import('@oneclaw/event-store-postgres');
    return PostgresEventStore.connect(url, { maxAppendBytes: config.maxAppendBytes, poolSize, schema });
  }
  if (config.kurrentDbConnectionString) {
    const { KurrentDbEventStore } = require('@oneclaw/event-store-kurrentdb') as typeof import('@oneclaw/event-store-kurrentdb');
    return KurrentDbEventStore.connect(config.kurrentDbConnectionString, { maxAppendBytes: config.maxAppendBytes });
  }
  ensureDataDir(config.dataDir);
  return SqliteEventStore.open(path.join(config.dataDir, 'events.db'), { maxAppendBytes: config.maxAppendBytes });
}

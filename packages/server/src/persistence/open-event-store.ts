import path from 'node:path';
import type { EventStore } from '@oneclaw/core';
import { KurrentDbEventStore } from '@oneclaw/event-store-kurrentdb';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import type { ServerConfig } from '../server-config';
import { ensureDataDir } from './data-dir';

/** The store the config names: KurrentDB when a connection string is set, else one SQLite file in the data directory. */
export async function openEventStore(config: ServerConfig): Promise<EventStore> {
  if (config.kurrentDbConnectionString) {
    return KurrentDbEventStore.connect(config.kurrentDbConnectionString, { maxAppendBytes: config.maxAppendBytes });
  }
  ensureDataDir(config.dataDir);
  return SqliteEventStore.open(path.join(config.dataDir, 'events.db'), { maxAppendBytes: config.maxAppendBytes });
}

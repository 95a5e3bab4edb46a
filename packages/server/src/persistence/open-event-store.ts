import path from 'node:path';
import type { EventStore } from '@oneclaw/core';
import type { ServerConfig } from '../server-config';
import { ensureDataDir } from './data-dir';
import { KurrentDbEventStore } from './kurrentdb-event-store';
import { SqliteEventStore } from './sqlite-event-store';

/** The store the config names: KurrentDB when a connection string is set, else one SQLite file in the data directory. */
export async function openEventStore(config: ServerConfig): Promise<EventStore> {
  if (config.kurrentDbConnectionString) {
    return KurrentDbEventStore.connect(config.kurrentDbConnectionString, { maxAppendBytes: config.maxAppendBytes });
  }
  ensureDataDir(config.dataDir);
  return SqliteEventStore.open(path.join(config.dataDir, 'events.db'), { maxAppendBytes: config.maxAppendBytes });
}

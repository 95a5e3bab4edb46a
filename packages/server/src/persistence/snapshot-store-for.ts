import type { EventStore, SnapshotStore } from '@oneclaw/core';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';

/**
 * The snapshot store that goes with an event store: SQLite keeps snapshots in its own file (and
 * checks each against its log). Other adapters (KurrentDB, PostgreSQL, in-memory) have none yet,
 * so their sessions are replayed in full on a cold load (docs/event-store.md, "Snapshots").
 */
export function snapshotStoreFor(store: EventStore): SnapshotStore | undefined {
  return store instanceof SqliteEventStore ? store.snapshotStore() : undefined;
}

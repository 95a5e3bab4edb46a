import type { EventStore, SnapshotStore } from '@oneclaw/core';

/**
 * The snapshot store that goes with an event store: SQLite keeps snapshots in its own file,
 * PostgreSQL in its own schema, KurrentDB in streams of its own, each checking every snapshot
 * against its log (SQL-04). The in-memory store has none, so its sessions are replayed in full
 * on a cold load (docs/event-store.md, "Snapshots"). Found by the method rather than by class, so
 * that the PostgreSQL and KurrentDB clients are loaded only when configured.
 */
export function snapshotStoreFor(store: EventStore): SnapshotStore | undefined {
  const withSnapshots = store as EventStore & { snapshotStore?: () => SnapshotStore };
  return typeof withSnapshots.snapshotStore === 'function' ? withSnapshots.snapshotStore() : undefined;
}

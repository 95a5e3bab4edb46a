// The EventStore adapter on KurrentDB, for several server replicas on one cluster (docs/scale-out.md).
export { KurrentDbEventStore, type KurrentDbEventStoreOptions } from './kurrentdb-event-store';
export { DEFAULT_MAX_SNAPSHOT_STATE_BYTES, KurrentDbSnapshotStore, type KurrentDbSnapshotStoreOptions } from './kurrentdb-snapshot-store';
export { KurrentDbConfigError } from './kurrentdb-errors';
export { ONECLAW_EVENT_ID_NAMESPACE, kurrentEventId } from './kurrentdb-event-ids';

// The embedded, default EventStore adapter (docs/event-store.md).
export { SqliteEventStore, type SqliteConnectionInfo, type SqliteEventStoreOptions } from './sqlite-event-store';
export { sqliteVersion } from './sqlite-version';
export { isSqliteError } from './is-sqlite-error';
export { SqliteSnapshotStore } from './sqlite-snapshot-store';

// The EventStore adapter on PostgreSQL, for several server replicas on one database (docs/scale-out.md).
export { PostgresEventStore, type PostgresConnectionInfo, type PostgresEventStoreOptions } from './postgres-event-store';
export { PostgresSnapshotStore } from './postgres-snapshot-store';
export { PostgresConfigError, redactPostgresUrl, type PostgresFailureReason } from './postgres-errors';
export { SCHEMA_VERSION as POSTGRES_SCHEMA_VERSION } from './postgres-migrations';

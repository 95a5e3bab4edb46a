export { createApp } from './create-app';
export { configureApp } from './configure-app';
export { AppModule, openEmbeddedStore, type AppOptions } from './app.module';
export { loadServerConfig, type ServerConfig } from './server-config';
export { SqliteEventStore, type SqliteEventStoreOptions, type SqliteConnectionInfo } from './persistence/sqlite-event-store';

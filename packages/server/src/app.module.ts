import { Module, type DynamicModule, type OnApplicationShutdown, Inject } from '@nestjs/common';
import type { EventStore, ToolCatalogue } from '@oneclaw/core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { HealthController } from './http/health.controller';
import { SqliteEventStore } from './persistence/sqlite-event-store';
import type { ServerConfig } from './server-config';
import { SessionService } from './sessions/session.service';
import { SessionsController } from './sessions/sessions.controller';
import { EVENT_STORE, TOOL_CATALOGUE } from './tokens';

/** Until the tool registry is wired in, the catalogue is empty: sessions offer no tools. */
const noTools: ToolCatalogue = {
  coreToolNames: () => [],
  hasGroup: () => false,
  groupToolNames: () => [],
  groupNames: () => [],
  isToolEnabled: () => true,
};

export interface AppOptions {
  readonly config: ServerConfig;
  /** Overrides the store chosen from config (tests pass an in-memory or prepared store). */
  readonly eventStore?: EventStore;
}

class StoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}
  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

@Module({})
export class AppModule {
  static forRoot(options: AppOptions): DynamicModule {
    return {
      module: AppModule,
      controllers: [HealthController, SessionsController],
      providers: [
        { provide: EVENT_STORE, useFactory: () => options.eventStore ?? openEmbeddedStore(options.config) },
        { provide: TOOL_CATALOGUE, useValue: noTools },
        SessionService,
        StoreLifecycle,
      ],
    };
  }
}

/** The default store: one SQLite file in the data directory. */
export function openEmbeddedStore(config: ServerConfig): EventStore {
  mkdirSync(config.dataDir, { recursive: true });
  return SqliteEventStore.open(path.join(config.dataDir, 'events.db'), { maxAppendBytes: config.maxAppendBytes });
}

import { Inject, type BeforeApplicationShutdown, type OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '@oneclaw/core';
import type { Runtime } from './composition';
import { EVENT_STORE, RUNTIME } from './tokens';
import { ToolRuntime } from './tools/tool-runtime';
import { TurnRegistry } from './turns/turn-registry';

/**
 * Closes what the app opened, in reverse order. Running turns are cancelled before the HTTP
 * server closes (it waits for open streams), so each records its stop and its stream ends.
 * Snapshot writes still in flight finish before the store closes: one cut off by the close would
 * fail, and the session's next cold load would replay its whole stream (F4).
 */
export class AppLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly tools: ToolRuntime,
    private readonly turns: TurnRegistry,
    @Inject(RUNTIME) private readonly runtime: Pick<Runtime, 'checkpoints' | 'sessionIndex'>,
  ) {}

  beforeApplicationShutdown(): void {
    this.turns.cancelAll('the server is shutting down');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.tools.close();
    this.runtime.sessionIndex.close();
    await this.runtime.checkpoints?.idle();
    await this.store.close();
  }
}

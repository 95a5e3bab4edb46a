import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CutOffTurns } from './cut-off-turns';

/**
 * Closes the turns an earlier process left open, once the store is open and before the app
 * bootstraps: Nest runs every onModuleInit before any onApplicationBootstrap, so the scheduler
 * (which reconciles its runs from these sessions, then starts) and the HTTP server come after.
 */
@Injectable()
export class CutOffTurnsLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(private readonly cutOffTurns: CutOffTurns) {}

  async onModuleInit(): Promise<void> {
    await this.cutOffTurns.closeAllCutOff();
  }

  /** No more retries of failed turns' ends once the app stops (the store closes). */
  onApplicationShutdown(): void {
    this.cutOffTurns.stop();
  }
}

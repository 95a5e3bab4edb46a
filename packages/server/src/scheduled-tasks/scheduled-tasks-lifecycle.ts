import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { asSessionEvent } from '@oneclaw/core';
import { SessionRepository } from '../sessions/session-repository';
import type { Logger } from '../logging/logger';
import { LOGGER } from '../tokens';
import { ServerIdentity } from '../turns/server-identity';
import { ScheduledTaskService, type RunTurnState } from './scheduled-task-service';
import { TaskScheduler } from './task-scheduler';

/**
 * Starts the task service and the scheduler once the application has bootstrapped (cut-off
 * turns are closed) and stops them before the event store closes: the timer stops, runs in
 * progress are cancelled and their outcome recorded.
 */
@Injectable()
export class ScheduledTasksLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly service: ScheduledTaskService,
    private readonly scheduler: TaskScheduler,
    private readonly sessions: SessionRepository,
    private readonly identity: ServerIdentity,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.service.start();
    // Cut-off turns were closed at module init (CutOffTurnsLifecycle); the runs they belonged to
    // are finished now, before the scheduler can start new ones.
    await this.service
      .finishCutOffRuns((sessionId) => runTurnState(this.sessions, sessionId), this.identity.silenceLimitMs)
      .catch((error: unknown) => {
        this.logger.warn({ component: 'scheduled-tasks' }, `could not finish cut-off runs: ${(error as Error)?.message ?? String(error)}`);
      });
    await this.scheduler.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.scheduler.stop();
    await this.service.stop();
  }
}

/** Whether the run's session has an open turn, and how its last finished turn ended. */
async function runTurnState(sessions: SessionRepository, sessionId: string): Promise<RunTurnState> {
  const session = await sessions.load(sessionId);
  if (session.state.openTurn) return { open: true };
  const events = await sessions.events(sessionId);
  for (let i = events.length - 1; i >= 0; i--) {
    const event = asSessionEvent(events[i] as (typeof events)[number]);
    if (event?.type === 'TurnFinished') return { open: false, lastStop: { reason: event.data.reason, detail: event.data.detail } };
  }
  return { open: false };
}

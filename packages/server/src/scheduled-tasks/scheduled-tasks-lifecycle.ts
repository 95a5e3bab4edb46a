import { Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { AgentDirectory } from '../agents/agent-directory';
import { SessionRepository } from '../sessions/session-repository';
import { TurnRunner } from '../turns/turn-runner';
import { ScheduledTaskService } from './scheduled-task-service';
import { TaskScheduler } from './task-scheduler';
import { TurnRunLauncher } from './turn-run-launcher';

/**
 * Starts the scheduler once the application has bootstrapped (the TurnRunner exists; the task
 * service was created before the tools, which need it) and stops it before the event store
 * closes: the timer stops, runs in progress are cancelled and their outcome recorded.
 */
@Injectable()
export class ScheduledTasksLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly service: ScheduledTaskService,
    private readonly scheduler: TaskScheduler,
    private readonly sessions: SessionRepository,
    private readonly runner: TurnRunner,
    private readonly agents: AgentDirectory,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.service.attach(new TurnRunLauncher(this.sessions, this.runner, this.agents));
    await this.scheduler.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.scheduler.stop();
    await this.service.stop();
  }
}

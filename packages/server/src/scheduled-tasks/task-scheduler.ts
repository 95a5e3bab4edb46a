import type { ScheduledTask } from '@oneclaw/core';
import { latestSlotIn, oneTimeSlot } from './schedule-calendar';
import type { ScheduledTaskService, StartedRun } from './scheduled-task-service';

export interface TaskSchedulerOptions {
  readonly service: ScheduledTaskService;
  readonly now?: () => Date;
  readonly log?: (level: 'info' | 'warn', message: string) => void;
}

/** Slots fall on whole minutes: a tick just after each minute starts its runs within a moment. */
const TICK_AFTER_MINUTE_MS = 250;

/**
 * Runs due tasks. `tick(now)` starts whatever is due at `now`; in production a timer calls it
 * just after every minute boundary, and tests call it directly with any instant.
 *
 * What is due at a tick:
 * - a daily or weekly task: its latest slot after the previous tick (and after the task was
 *   last scheduled or enabled), up to now. Slots missed while the server was down are not
 *   caught up: the first tick after a start looks back only to the start.
 * - a one-time task that has not run and whose slot is now or past, even if that was while the
 *   server was down: it runs once, marked late when its time passed before this start.
 * Every replica ticks; the stream records each slot's run once (see startScheduledRun).
 */
export class TaskScheduler {
  private readonly now: () => Date;
  private readonly log: (level: 'info' | 'warn', message: string) => void;
  private startedAt: Date | undefined;
  /** Slots up to here have been looked at. */
  private watermark: Date | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Ticks run one at a time, in call order. */
  private ticking: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: TaskSchedulerOptions) {
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? (() => undefined);
  }

  /**
   * Rebuilds the schedule from the stream and starts what is due now (a one-time task missed
   * while the server was down); then, unless `timer: false`, ticks every minute.
   */
  async start(options: { timer?: boolean } = {}): Promise<readonly StartedRun[]> {
    const now = this.now();
    this.startedAt = now;
    this.watermark = now;
    this.stopped = false;
    let started: readonly StartedRun[] = [];
    try {
      started = await this.tick(now);
    } catch (error) {
      // The store may be briefly unreachable (KurrentDB): the next tick tries again.
      this.log('warn', `scheduled tasks: first check failed: ${(error as Error).message}`);
    }
    if (options.timer !== false) this.arm();
    return started;
  }

  /** Starts the runs due at `now`; resolves with what it started. */
  tick(now: Date): Promise<readonly StartedRun[]> {
    const next = this.ticking.catch(() => undefined).then(() => this.tickNow(now));
    this.ticking = next;
    return next;
  }

  /** Stops the timer and waits for a tick in progress; the service's runs are stopped by the service. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.ticking.catch(() => undefined);
  }

  private async tickNow(now: Date): Promise<readonly StartedRun[]> {
    const startedAt = this.startedAt ?? now;
    const from = this.watermark ?? now;
    const { state } = await this.options.service.repository.load();
    // Read fresh: at start the config stream may still be loading (the first tick would use the
    // default zone), and another replica may have changed the setting since the last tick.
    const zone = await this.options.service.currentTimeZone();
    const started: StartedRun[] = [];
    for (const task of state.tasks.values()) {
      let slot: Date | undefined;
      try {
        slot = dueSlot(task, from, now, zone);
      } catch (error) {
        this.log('warn', `scheduled task ${task.taskId}: cannot compute its schedule in ${zone}: ${(error as Error).message}`);
        continue;
      }
      if (!slot) continue;
      try {
        const run = await this.options.service.startScheduledRun(task.taskId, slot, slot.getTime() < startedAt.getTime());
        if (run) started.push(run);
      } catch (error) {
        // One task's trouble (deleted meanwhile, a store error) must not keep the others from running.
        this.log('warn', `scheduled task ${task.taskId}: could not start its run: ${(error as Error).message}`);
      }
    }
    if (now.getTime() > from.getTime()) this.watermark = now;
    return started;
  }

  private arm(): void {
    if (this.stopped) return;
    const now = this.now().getTime();
    const delay = 60_000 - (now % 60_000) + TICK_AFTER_MINUTE_MS;
    this.timer = setTimeout(() => {
      void this.tick(this.now())
        .catch((error: unknown) => this.log('warn', `scheduled tasks: check failed: ${(error as Error).message}`))
        .finally(() => this.arm());
    }, delay);
    // The timer alone never keeps the process alive.
    this.timer.unref();
  }
}

/** The slot of `task` to run at a tick at `now` that follows a tick at `from`, if any. */
export function dueSlot(task: ScheduledTask, from: Date, now: Date, timeZone: string): Date | undefined {
  if (!task.enabled) return undefined;
  if (task.schedule.type === 'one_time') {
    if (task.completed) return undefined;
    const slot = oneTimeSlot(task.schedule, timeZone);
    return slot.getTime() <= now.getTime() ? slot : undefined;
  }
  const since = Math.max(from.getTime(), Date.parse(task.activeSince), task.lastScheduledFor ? Date.parse(task.lastScheduledFor) : 0);
  return latestSlotIn(task.schedule, new Date(since), now, timeZone);
}

import type { RunOutcome, RunTrigger } from './scheduled-task-events';
import type { TaskSchedule } from './task-schedule';

export interface TaskRun {
  readonly runId: string;
  readonly sessionId: string;
  readonly trigger: RunTrigger;
  readonly scheduledFor?: string;
  readonly late: boolean;
  readonly startedAt: string;
  /** `running` until its outcome is recorded (a run cut off by a server stop stays so). */
  readonly status: 'running' | RunOutcome;
  readonly reason?: string;
  readonly detail?: string;
  readonly finishedAt?: string;
}

export interface ScheduledTask {
  readonly taskId: string;
  readonly name: string;
  readonly prompt: string;
  readonly schedule: TaskSchedule;
  readonly enabled: boolean;
  readonly agentId: string;
  readonly sourceSessionId?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  /**
   * When the schedule was last set or the task last enabled: slots before it are not run, so a
   * daily 07:00 set at 07:00:30 first runs tomorrow.
   */
  readonly activeSince: string;
  /** The latest slot a scheduled run was started for; a slot at or before it is never started again. */
  readonly lastScheduledFor?: string;
  /** A one-time task whose slot has been run; setting a new schedule makes it pending again. */
  readonly completed: boolean;
  /** The most recent runs, oldest first: at most `MAX_RUNS_KEPT`, but never dropping one still running. */
  readonly runs: readonly TaskRun[];
}

export interface ScheduledTasksState {
  /** In the order they were scheduled. */
  readonly tasks: ReadonlyMap<string, ScheduledTask>;
  /** Events evolve could not read (unknown type, malformed data, newer schema), skipped. */
  readonly skippedEvents: number;
}

/** Runs remembered per task in the state (more only while more are running); the stream keeps them all. */
export const MAX_RUNS_KEPT = 20;

export const initialScheduledTasksState: ScheduledTasksState = { tasks: new Map(), skippedEvents: 0 };

export function lastRunOf(task: ScheduledTask): TaskRun | undefined {
  return task.runs[task.runs.length - 1];
}

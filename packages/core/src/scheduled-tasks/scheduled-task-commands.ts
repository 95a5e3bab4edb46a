import type { RunOutcome, RunTrigger } from './scheduled-task-events';
import type { ScheduleInput } from './task-schedule';

/**
 * Commands of the scheduled-tasks aggregate. Ids (task, run, session) come with the command and
 * the time zone names the wall clock the schedule is read in, so deciding stays pure.
 */
export interface ScheduleTask {
  readonly type: 'ScheduleTask';
  readonly taskId: string;
  readonly name: string;
  readonly prompt: string;
  readonly schedule: ScheduleInput;
  readonly agentId: string;
  readonly sourceSessionId?: string;
  /** IANA zone the schedule is meant in (a one-time task must be in the future there). */
  readonly timeZone: string;
}

/** Fields left out stay as they are; schedule fields are merged into the current schedule. */
export interface UpdateTask {
  readonly type: 'UpdateTask';
  readonly taskId: string;
  readonly name?: string;
  readonly prompt?: string;
  readonly schedule?: ScheduleInput;
  readonly enabled?: boolean;
  readonly timeZone: string;
}

export interface DeleteTask {
  readonly type: 'DeleteTask';
  readonly taskId: string;
}

export interface StartTaskRun {
  readonly type: 'StartTaskRun';
  readonly taskId: string;
  readonly runId: string;
  readonly sessionId: string;
  readonly trigger: RunTrigger;
  /** The slot (ISO instant); required for a scheduled run. */
  readonly scheduledFor?: string;
  readonly late?: boolean;
}

export interface FinishTaskRun {
  readonly type: 'FinishTaskRun';
  readonly taskId: string;
  readonly runId: string;
  readonly outcome: RunOutcome;
  readonly reason: string;
  readonly detail: string;
}

export type ScheduledTaskCommand = ScheduleTask | UpdateTask | DeleteTask | StartTaskRun | FinishTaskRun;

import type { EventEnvelope } from '../events/event-envelope';
import type { TaskSchedule } from './task-schedule';

/** The one stream that holds every scheduled task and every run of one (audited like sessions). */
export const SCHEDULED_TASKS_STREAM_ID = 'scheduled-tasks';

/** Schema version written into new scheduled-task events; readers accept this version and older. */
export const SCHEDULED_TASK_EVENT_SCHEMA_VERSION = 1;

/** What started a run: its slot in the schedule, or someone asking for it now (run_scheduled_task). */
export type RunTrigger = 'schedule' | 'manual';

/** How a finished run went: `succeeded` when its turn completed, `failed` otherwise (the reason says why). */
export type RunOutcome = 'succeeded' | 'failed';

export type TaskScheduled = EventEnvelope<
  'TaskScheduled',
  {
    readonly taskId: string;
    readonly name: string;
    readonly prompt: string;
    readonly schedule: TaskSchedule;
    /** The agent the runs use: the agent of the session that scheduled the task. */
    readonly agentId: string;
    /** The session the task was scheduled from, when it came from one. */
    readonly sourceSessionId?: string;
  }
>;

/** Only the fields that changed are present; a schedule is always given whole. */
export type TaskUpdated = EventEnvelope<
  'TaskUpdated',
  {
    readonly taskId: string;
    readonly name?: string;
    readonly prompt?: string;
    readonly schedule?: TaskSchedule;
    readonly enabled?: boolean;
  }
>;

export type TaskDeleted = EventEnvelope<'TaskDeleted', { readonly taskId: string }>;

/**
 * A run claimed and started. For a scheduled run the run id derives from the task and the slot,
 * so two replicas deciding on the same slot record it once; the loser records nothing.
 */
export type TaskRunStarted = EventEnvelope<
  'TaskRunStarted',
  {
    readonly taskId: string;
    readonly runId: string;
    /** The new session the prompt runs in. */
    readonly sessionId: string;
    readonly trigger: RunTrigger;
    /** The slot (ISO instant) of a scheduled run. */
    readonly scheduledFor?: string;
    /** The slot passed before the server started (it was down): a one-time task run at start. */
    readonly late: boolean;
  }
>;

export type TaskRunFinished = EventEnvelope<
  'TaskRunFinished',
  {
    readonly taskId: string;
    readonly runId: string;
    readonly sessionId: string;
    readonly outcome: RunOutcome;
    /** The turn's stop reason (`completed`, `round_cap`, `provider_error`, ...) or the error code that stopped the run. */
    readonly reason: string;
    /** Plain words for the user. */
    readonly detail: string;
  }
>;

export type ScheduledTaskEvent = TaskScheduled | TaskUpdated | TaskDeleted | TaskRunStarted | TaskRunFinished;
export type ScheduledTaskEventType = ScheduledTaskEvent['type'];

import type { EventEnvelope } from '../events/event-envelope';
import { SCHEDULED_TASK_EVENT_SCHEMA_VERSION, type ScheduledTaskEvent } from './scheduled-task-events';
import { MAX_RUNS_KEPT, type ScheduledTask, type ScheduledTasksState, type TaskRun } from './scheduled-task-state';
import { parseSchedule, type TaskSchedule } from './task-schedule';

/**
 * Applies one event and returns a new state; the given one is left as it was. Total: an event
 * it cannot read (unknown type, malformed data, newer schema, a task it does not know) is
 * counted in `skippedEvents` and otherwise ignored, so the tasks never fail to load (EST-17).
 */
export function evolveScheduledTasks(state: ScheduledTasksState, envelope: EventEnvelope): ScheduledTasksState {
  const event = readable(envelope);
  const next = event ? apply(state, event) : undefined;
  return next ?? { ...state, skippedEvents: state.skippedEvents + 1 };
}

/** The new state, or undefined when the event cannot be applied. */
function apply(state: ScheduledTasksState, event: ScheduledTaskEvent): ScheduledTasksState | undefined {
  const at = event.metadata.occurredAt;
  if (event.type === 'TaskScheduled') {
    const d = event.data;
    if (state.tasks.has(d.taskId) || !isText(d.name) || !isText(d.prompt) || !isText(d.agentId)) return undefined;
    const schedule = scheduleOf(d.schedule);
    if (!schedule) return undefined;
    const task: ScheduledTask = {
      taskId: d.taskId,
      name: d.name,
      prompt: d.prompt,
      schedule,
      enabled: true,
      agentId: d.agentId,
      ...(isText(d.sourceSessionId) ? { sourceSessionId: d.sourceSessionId } : {}),
      createdAt: at,
      updatedAt: at,
      activeSince: at,
      completed: false,
      runs: [],
    };
    return withTask(state, task);
  }

  // Trimmed: older versions recorded TaskDeleted with the id as the model gave it (" task-..."),
  // after telling the user the task was deleted; such a stream must replay with the task deleted.
  const task = state.tasks.get(event.data.taskId.trim());
  if (!task) return undefined;
  switch (event.type) {
    case 'TaskUpdated': {
      const d = event.data;
      const schedule = d.schedule === undefined ? undefined : scheduleOf(d.schedule);
      if (d.schedule !== undefined && !schedule) return undefined;
      const enabling = d.enabled === true && !task.enabled;
      return withTask(state, {
        ...task,
        ...(isText(d.name) ? { name: d.name } : {}),
        ...(isText(d.prompt) ? { prompt: d.prompt } : {}),
        ...(schedule ? { schedule, completed: false } : {}),
        ...(typeof d.enabled === 'boolean' ? { enabled: d.enabled } : {}),
        ...(schedule || enabling ? { activeSince: at } : {}),
        updatedAt: at,
      });
    }
    case 'TaskDeleted': {
      const tasks = new Map(state.tasks);
      tasks.delete(task.taskId);
      return { ...state, tasks };
    }
    case 'TaskRunStarted': {
      const d = event.data;
      if (!isText(d.runId) || !isText(d.sessionId) || (d.trigger !== 'schedule' && d.trigger !== 'manual')) return undefined;
      const scheduled = d.trigger === 'schedule' && isText(d.scheduledFor);
      const run: TaskRun = {
        runId: d.runId,
        sessionId: d.sessionId,
        trigger: d.trigger,
        ...(scheduled ? { scheduledFor: d.scheduledFor } : {}),
        late: d.late === true,
        startedAt: at,
        status: 'running',
      };
      return withTask(state, {
        ...task,
        runs: trimmedRuns([...task.runs, run]),
        ...(scheduled ? { lastScheduledFor: d.scheduledFor, completed: task.schedule.type === 'one_time' ? true : task.completed } : {}),
      });
    }
    case 'TaskRunFinished': {
      const d = event.data;
      if ((d.outcome !== 'succeeded' && d.outcome !== 'failed') || !task.runs.some((r) => r.runId === d.runId)) return undefined;
      const runs = task.runs.map((r) => (r.runId === d.runId ? { ...r, status: d.outcome, reason: String(d.reason), detail: String(d.detail ?? ''), finishedAt: at } : r));
      return withTask(state, { ...task, runs: trimmedRuns(runs) });
    }
  }
}

/**
 * At most `MAX_RUNS_KEPT` runs: the oldest finished ones make room, never one still running. Its
 * outcome is yet to be recorded and FinishTaskRun needs the run in the state (dropped, a long
 * run overtaken by 20 quick ones never got its TaskRunFinished). More are kept only while more
 * than that many are running.
 */
function trimmedRuns(runs: readonly TaskRun[]): readonly TaskRun[] {
  let excess = runs.length - MAX_RUNS_KEPT;
  if (excess <= 0) return runs;
  return runs.filter((run) => {
    if (excess === 0 || run.status === 'running') return true;
    excess--;
    return false;
  });
}

function withTask(state: ScheduledTasksState, task: ScheduledTask): ScheduledTasksState {
  const tasks = new Map(state.tasks);
  tasks.set(task.taskId, task);
  return { ...state, tasks };
}

function readable(envelope: EventEnvelope): ScheduledTaskEvent | undefined {
  const version = envelope.metadata?.schemaVersion;
  if (typeof version === 'number' && version > SCHEDULED_TASK_EVENT_SCHEMA_VERSION) return undefined;
  if (typeof envelope.metadata?.occurredAt !== 'string') return undefined;
  const data = envelope.data as { taskId?: unknown } | null;
  if (typeof data !== 'object' || data === null || !isText(data.taskId)) return undefined;
  switch (envelope.type) {
    case 'TaskScheduled':
    case 'TaskUpdated':
    case 'TaskDeleted':
    case 'TaskRunStarted':
    case 'TaskRunFinished':
      return envelope as ScheduledTaskEvent;
    default:
      return undefined;
  }
}

/** A recorded schedule read back through the same checks as a new one. */
function scheduleOf(value: unknown): TaskSchedule | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    return parseSchedule(value as TaskSchedule);
  } catch {
    return undefined;
  }
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

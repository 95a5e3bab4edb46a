import type { EventDraft } from '../aggregate/stamp-events';
import type { ScheduledTaskCommand, StartTaskRun, UpdateTask } from './scheduled-task-commands';
import { scheduledTaskErrors } from './scheduled-task-errors';
import type { ScheduledTaskEvent, TaskUpdated } from './scheduled-task-events';
import type { ScheduledTask, ScheduledTasksState } from './scheduled-task-state';
import { localMinuteOf, localMinuteOfSchedule, mergeSchedule, parseSchedule, sameSchedule, type TaskSchedule } from './task-schedule';

export const MAX_TASK_NAME_CHARS = 200;
export const MAX_TASK_PROMPT_CHARS = 20_000;
/** A run's detail is for a status line; the session holds the full story. */
export const MAX_RUN_DETAIL_CHARS = 2_000;

type Draft = EventDraft<ScheduledTaskEvent>;

/**
 * Turns a command into the events that record it, or throws a `ScheduledTaskRuleError` with a
 * stable code. An empty list means nothing is to be recorded: an update that changes nothing,
 * a slot that is already claimed (by this server or another replica), a run already finished.
 */
export function decideScheduledTasks(command: ScheduledTaskCommand, state: ScheduledTasksState, now: Date): Draft[] {
  switch (command.type) {
    case 'ScheduleTask': {
      requireText('taskId', command.taskId);
      requireText('agentId', command.agentId);
      if (state.tasks.has(command.taskId)) throw scheduledTaskErrors.taskExists(command.taskId);
      const schedule = parseSchedule(command.schedule);
      assertNotPast(schedule, now, command.timeZone);
      return [
        {
          type: 'TaskScheduled',
          data: {
            taskId: command.taskId,
            name: taskName(command.name),
            prompt: taskPrompt(command.prompt),
            schedule,
            agentId: command.agentId,
            ...(command.sourceSessionId ? { sourceSessionId: command.sourceSessionId } : {}),
          },
        },
      ];
    }

    case 'UpdateTask':
      return decideUpdate(command, taskOf(state, command.taskId), now);

    case 'DeleteTask':
      // The task's own id, not the id as given: evolve matches events to tasks by id.
      return [{ type: 'TaskDeleted', data: { taskId: taskOf(state, command.taskId).taskId } }];

    case 'StartTaskRun':
      return decideStart(command, taskOf(state, command.taskId));

    case 'FinishTaskRun': {
      const task = taskOf(state, command.taskId);
      const run = task.runs.find((r) => r.runId === command.runId);
      if (!run) throw scheduledTaskErrors.runNotFound(command.taskId, command.runId);
      if (run.status !== 'running') return [];
      if (command.outcome !== 'succeeded' && command.outcome !== 'failed') {
        throw scheduledTaskErrors.invalidCommand(`outcome must be succeeded or failed, not '${String(command.outcome)}'.`);
      }
      requireText('reason', command.reason);
      return [
        {
          type: 'TaskRunFinished',
          data: {
            taskId: task.taskId,
            runId: run.runId,
            sessionId: run.sessionId,
            outcome: command.outcome,
            reason: command.reason,
            detail: String(command.detail ?? '').slice(0, MAX_RUN_DETAIL_CHARS),
          },
        },
      ];
    }

    default: {
      const unknown: never = command;
      throw scheduledTaskErrors.invalidCommand(`Unknown command type '${(unknown as { type?: string }).type}'.`);
    }
  }
}

function decideUpdate(command: UpdateTask, task: ScheduledTask, now: Date): Draft[] {
  const changes: { -readonly [K in keyof TaskUpdated['data']]: TaskUpdated['data'][K] } = { taskId: task.taskId };
  if (command.name !== undefined) {
    const name = taskName(command.name);
    if (name !== task.name) changes.name = name;
  }
  if (command.prompt !== undefined) {
    const prompt = taskPrompt(command.prompt);
    if (prompt !== task.prompt) changes.prompt = prompt;
  }
  const patch = command.schedule;
  const touchesSchedule = patch !== undefined && Object.values(patch).some((v) => v !== undefined);
  if (touchesSchedule) {
    const schedule = parseSchedule(mergeSchedule(task.schedule, patch));
    if (!sameSchedule(schedule, task.schedule)) {
      assertNotPast(schedule, now, command.timeZone);
      changes.schedule = schedule;
    }
  }
  if (command.enabled !== undefined) {
    if (typeof command.enabled !== 'boolean') throw scheduledTaskErrors.invalidCommand('enabled must be true or false.');
    if (command.enabled !== task.enabled) changes.enabled = command.enabled;
  }
  // Enabling a one-time task whose time has passed would run it at once, long after the time
  // the user chose (or a second time): they have to give it a new time.
  if (changes.enabled === true && !changes.schedule && task.schedule.type === 'one_time') {
    if (task.completed) {
      throw scheduledTaskErrors.invalidSchedule(`Task '${task.taskId}' ran once already on ${task.schedule.date}; give it a new date (and time) to run it again.`);
    }
    assertNotPast(task.schedule, now, command.timeZone);
  }
  return Object.keys(changes).length === 1 ? [] : [{ type: 'TaskUpdated', data: changes }];
}

function decideStart(command: StartTaskRun, task: ScheduledTask): Draft[] {
  requireText('runId', command.runId);
  requireText('sessionId', command.sessionId);
  if (task.runs.some((r) => r.runId === command.runId)) return [];
  if (command.trigger === 'schedule') {
    const slot = Date.parse(command.scheduledFor ?? '');
    if (Number.isNaN(slot)) throw scheduledTaskErrors.invalidCommand('A scheduled run needs scheduledFor, an ISO-8601 instant.');
    // Each is "nothing to start": the slot was claimed already, or the task changed meanwhile.
    if (!task.enabled) return [];
    if (task.schedule.type === 'one_time' && task.completed) return [];
    if (task.lastScheduledFor !== undefined && slot <= Date.parse(task.lastScheduledFor)) return [];
  } else if (command.trigger !== 'manual') {
    throw scheduledTaskErrors.invalidCommand(`trigger must be schedule or manual, not '${String(command.trigger)}'.`);
  }
  return [
    {
      type: 'TaskRunStarted',
      data: {
        taskId: task.taskId,
        runId: command.runId,
        sessionId: command.sessionId,
        trigger: command.trigger,
        ...(command.trigger === 'schedule' ? { scheduledFor: new Date(command.scheduledFor as string).toISOString() } : {}),
        late: command.late === true,
      },
    },
  ];
}

function taskOf(state: ScheduledTasksState, taskId: string): ScheduledTask {
  const task = typeof taskId === 'string' ? state.tasks.get(taskId.trim()) : undefined;
  if (!task) throw scheduledTaskErrors.notFound(String(taskId));
  return task;
}

function assertNotPast(schedule: TaskSchedule, now: Date, timeZone: string): void {
  if (schedule.type !== 'one_time') return;
  const when = localMinuteOfSchedule(schedule);
  const current = localMinuteOf(now, timeZone);
  if (when < current) throw scheduledTaskErrors.inThePast(when, current, timeZone);
}

function taskName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name.length === 0 || name.length > MAX_TASK_NAME_CHARS) {
    throw scheduledTaskErrors.invalidTask(`name must be 1 to ${MAX_TASK_NAME_CHARS} characters.`);
  }
  return name;
}

function taskPrompt(value: unknown): string {
  const prompt = typeof value === 'string' ? value.trim() : '';
  if (prompt.length === 0 || prompt.length > MAX_TASK_PROMPT_CHARS) {
    throw scheduledTaskErrors.invalidTask(`prompt must be 1 to ${MAX_TASK_PROMPT_CHARS} characters: the message the task sends to the agent.`);
  }
  return prompt;
}

function requireText(field: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw scheduledTaskErrors.invalidCommand(`${field} is required and must be a non-empty string.`);
  }
}

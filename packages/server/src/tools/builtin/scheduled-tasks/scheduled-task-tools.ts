import { MAX_TASK_NAME_CHARS, MAX_TASK_PROMPT_CHARS, SCHEDULE_TYPES, type ScheduleInput } from '@oneclaw/core';
import { builtinTool, type Tool } from '@oneclaw/tool-registry';
import type { ScheduledTaskService, TaskView } from '../../../scheduled-tasks/scheduled-task-service';
import { describeSchedule, describeTask, nextRunText } from '../../../scheduled-tasks/task-text';

const TIMEOUT_MS = 10_000;

interface ScheduleFields {
  readonly schedule_type?: string;
  readonly hour?: number;
  readonly minute?: number;
  readonly day_of_week?: string;
  readonly date?: string;
}

interface ScheduleParams extends ScheduleFields {
  readonly name: string;
  readonly prompt: string;
}

interface TaskIdParams {
  readonly task_id: string;
}

interface UpdateParams extends ScheduleFields, TaskIdParams {
  readonly name?: string;
  readonly prompt?: string;
  readonly enabled?: boolean;
}

// Ranges and day names are checked by the domain, not the schema, so a wrong value is an
// `invalid_schedule` that says how to fix it, like every other schedule mistake.
const scheduleProperties = {
  schedule_type: { type: 'string', enum: [...SCHEDULE_TYPES], description: 'one_time (once, on date), daily, or weekly (on day_of_week).' },
  hour: { type: 'integer', description: 'Hour of the day, 0-23 (24-hour clock), in the server time zone.' },
  minute: { type: 'integer', description: 'Minute of the hour, 0-59.' },
  day_of_week: { type: 'string', description: 'For weekly tasks only: monday, tuesday, wednesday, thursday, friday, saturday or sunday.' },
  date: { type: 'string', description: 'For one_time tasks only: the day to run, YYYY-MM-DD (today or later).' },
} as const;
const nameProperty = { type: 'string', minLength: 1, maxLength: MAX_TASK_NAME_CHARS, description: 'A short name for the task.' } as const;
const promptProperty = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_TASK_PROMPT_CHARS,
  description: 'The message the agent receives at each run, as if the user had sent it in a new conversation.',
} as const;
const taskIdProperty = { type: 'string', minLength: 1, description: 'The task id, as schedule_task or list_scheduled_tasks gave it (task-...).' } as const;

/** The scheduled_tasks group (CATALOGUE.md section 8), in the origin's order. */
export function createScheduledTaskTools(service: ScheduledTaskService): Tool[] {
  const summary = (view: TaskView) =>
    `${view.task.taskId} "${view.task.name}": ${describeSchedule(view.task.schedule)} (${service.timeZone()}); ${view.task.enabled ? 'enabled' : 'disabled'}; next run: ${nextRunText(view.task, view.nextRun, service.timeZone())}`;

  return [
    builtinTool<ScheduleParams>(
      {
        name: 'schedule_task',
        description:
          'Schedule a prompt to run by itself as a new conversation: once on a date (one_time), every day (daily) or every week on a day (weekly), at hour:minute in the server time zone. The run uses the agent of this conversation.',
        parameters: {
          type: 'object',
          properties: { name: nameProperty, prompt: promptProperty, ...scheduleProperties },
          required: ['name', 'prompt', 'schedule_type', 'hour', 'minute'],
        },
        timeoutMs: TIMEOUT_MS,
      },
      async (params, context) => {
        const view = await service.schedule({ name: params.name, prompt: params.prompt, schedule: scheduleInput(params) }, { sessionId: context.sessionId });
        return `Scheduled task ${summary(view)}. Each run starts a new conversation with the prompt.`;
      },
    ),
    builtinTool(
      {
        name: 'list_scheduled_tasks',
        description: 'List the scheduled tasks: id, name, schedule, enabled or not, next run, and the last run (when, how it ended, its session).',
        parameters: { type: 'object', properties: {} },
        timeoutMs: TIMEOUT_MS,
      },
      async () => {
        const views = await service.list();
        const zone = service.timeZone();
        if (views.length === 0) return `No scheduled tasks. Create one with schedule_task (times are in ${zone}).`;
        const running = service.runningRunIds;
        const lines = views.map((v) =>
          describeTask(
            v.task,
            v.nextRun,
            zone,
            v.task.runs.some((r) => running.has(r.runId)),
          ),
        );
        return `${views.length} scheduled task${views.length === 1 ? '' : 's'} (times in ${zone}):\n${lines.join('\n')}`;
      },
    ),
    builtinTool<TaskIdParams>(
      {
        name: 'run_scheduled_task',
        description:
          'Run a scheduled task now, in a new conversation, without changing its schedule. Answers at once with the session id of the run; the run goes on in the background.',
        parameters: { type: 'object', properties: { task_id: taskIdProperty }, required: ['task_id'] },
        timeoutMs: TIMEOUT_MS,
      },
      async (params, context) => {
        const run = await service.runNow(params.task_id, { sessionId: context.sessionId, messageId: context.messageId, callId: context.callId });
        return run.alreadyStarted
          ? `This call already started task ${run.taskId}, in session ${run.sessionId}.`
          : `Started task ${run.taskId} now in session ${run.sessionId}. It runs in the background: its answer will be in that session, and list_scheduled_tasks shows how it ended.`;
      },
    ),
    builtinTool<UpdateParams>(
      {
        name: 'update_scheduled_task',
        description:
          'Change a scheduled task: give only what changes. Schedule fields are merged into the current schedule (e.g. only hour moves the time); enabled false pauses the task, true resumes it.',
        parameters: {
          type: 'object',
          properties: {
            task_id: taskIdProperty,
            name: nameProperty,
            prompt: promptProperty,
            ...scheduleProperties,
            enabled: { type: 'boolean', description: 'false pauses the task, true resumes it.' },
          },
          required: ['task_id'],
        },
        timeoutMs: TIMEOUT_MS,
      },
      async (params) => {
        const schedule = scheduleInput(params);
        const { view, changed } = await service.update(params.task_id, {
          ...(params.name !== undefined ? { name: params.name } : {}),
          ...(params.prompt !== undefined ? { prompt: params.prompt } : {}),
          ...(Object.keys(schedule).length > 0 ? { schedule } : {}),
          ...(params.enabled !== undefined ? { enabled: params.enabled } : {}),
        });
        return changed ? `Updated task ${summary(view)}.` : `Nothing to change: task ${summary(view)}.`;
      },
    ),
    builtinTool<TaskIdParams>(
      {
        name: 'delete_scheduled_task',
        description: 'Delete a scheduled task for good; it will not run again. The conversations of its past runs stay.',
        parameters: { type: 'object', properties: { task_id: taskIdProperty }, required: ['task_id'] },
        timeoutMs: TIMEOUT_MS,
      },
      async (params) => {
        const task = await service.delete(params.task_id);
        return `Deleted task ${task.taskId} "${task.name}" (${describeSchedule(task.schedule)}).`;
      },
    ),
  ];
}

/** The schedule fields the call gave, in the domain's names. */
function scheduleInput(params: ScheduleFields): ScheduleInput {
  return {
    ...(params.schedule_type !== undefined ? { type: params.schedule_type } : {}),
    ...(params.hour !== undefined ? { hour: params.hour } : {}),
    ...(params.minute !== undefined ? { minute: params.minute } : {}),
    ...(params.day_of_week !== undefined ? { dayOfWeek: params.day_of_week } : {}),
    ...(params.date !== undefined ? { date: params.date } : {}),
  };
}

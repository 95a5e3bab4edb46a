import { OneClawError } from '../oneclaw-error';

/** A scheduled-task command its rules refuse. Nothing is recorded. */
export class ScheduledTaskRuleError extends OneClawError {}

export const scheduledTaskErrors = {
  notFound: (taskId: string) => new ScheduledTaskRuleError('not_found', `No scheduled task '${taskId}'. Call list_scheduled_tasks to see the task ids.`, { taskId }),
  invalidSchedule: (problem: string) => new ScheduledTaskRuleError('invalid_schedule', problem),
  inThePast: (when: string, now: string, timeZone: string) =>
    new ScheduledTaskRuleError('invalid_schedule', `${when} is in the past (it is now ${now} in ${timeZone}). Give a future date and time, or use daily or weekly.`, {
      when,
      now,
      timeZone,
    }),
  invalidTask: (problem: string) => new ScheduledTaskRuleError('invalid_task', problem),
  taskExists: (taskId: string) => new ScheduledTaskRuleError('task_exists', `A scheduled task '${taskId}' already exists. Use a new task id.`, { taskId }),
  runNotFound: (taskId: string, runId: string) =>
    new ScheduledTaskRuleError('run_not_found', `Task '${taskId}' has no started run '${runId}'. Record its start first.`, { taskId, runId }),
  invalidTimeZone: (timeZone: string) =>
    new ScheduledTaskRuleError('invalid_time_zone', `'${timeZone}' is not a time zone: use an IANA name such as Europe/Berlin or UTC.`, { timeZone }),
  invalidCommand: (problem: string) => new ScheduledTaskRuleError('invalid_command', problem),
};

import { lastRunOf, type ScheduledTask, type TaskRun, type TaskSchedule } from '@oneclaw/core';

/** "every day at 07:30", "every Monday at 09:00", "once on 2026-03-01 at 07:30". */
export function describeSchedule(schedule: TaskSchedule): string {
  const at = `${pad(schedule.hour)}:${pad(schedule.minute)}`;
  if (schedule.type === 'daily') return `every day at ${at}`;
  if (schedule.type === 'weekly') return `every ${schedule.dayOfWeek[0]?.toUpperCase()}${schedule.dayOfWeek.slice(1)} at ${at}`;
  return `once on ${schedule.date} at ${at}`;
}

/** An instant on the zone's wall clock: "Mon 2026-03-02 07:30". */
export function formatLocal(instant: Date | string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    weekday: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** One task as the model and the user read it in list_scheduled_tasks. */
export function describeTask(task: ScheduledTask, nextRun: Date | undefined, timeZone: string, runningHere: boolean): string {
  const lines = [
    `- ${task.taskId} "${task.name}": ${describeSchedule(task.schedule)}; ${task.enabled ? 'enabled' : 'disabled'}`,
    `  next run: ${nextRunText(task, nextRun, timeZone)}`,
    `  last run: ${lastRunText(lastRunOf(task), timeZone, runningHere)}`,
    `  prompt: ${oneLine(task.prompt, 200)}`,
  ];
  return lines.join('\n');
}

export function nextRunText(task: ScheduledTask, nextRun: Date | undefined, timeZone: string): string {
  if (nextRun) return formatLocal(nextRun, timeZone);
  if (!task.enabled) return 'none (disabled)';
  if (task.schedule.type === 'one_time' && task.completed) return 'none (it ran once; give it a new date to run it again)';
  return 'none';
}

function lastRunText(run: TaskRun | undefined, timeZone: string, runningHere: boolean): string {
  if (!run) return 'never';
  const how = run.trigger === 'manual' ? ', started by hand' : run.late ? ', late: its time passed while the server was down' : '';
  const head = `${formatLocal(run.startedAt, timeZone)}${how}, session ${run.sessionId}`;
  if (run.status === 'running') {
    return `${head}: ${runningHere ? 'running now' : 'started, no outcome recorded yet (if the server stopped during it, open the session to see how far it got)'}`;
  }
  return `${head}: ${run.status} (${run.reason}${run.detail ? `: ${oneLine(run.detail, 200)}` : ''})`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

import { scheduledTaskErrors } from './scheduled-task-errors';

export const SCHEDULE_TYPES = ['one_time', 'daily', 'weekly'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** Monday first, as the origin app and ISO 8601 count the week. */
export const DAYS_OF_WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

/**
 * When a task runs, as wall-clock time in the server's time zone. Kept as the user said it
 * (not as an instant), so a daily 07:30 stays 07:30 across DST changes and a change of the
 * configured zone.
 */
export type TaskSchedule =
  | { readonly type: 'one_time'; readonly date: string; readonly hour: number; readonly minute: number }
  | { readonly type: 'daily'; readonly hour: number; readonly minute: number }
  | { readonly type: 'weekly'; readonly dayOfWeek: DayOfWeek; readonly hour: number; readonly minute: number };

/** A schedule as a caller gives it, unchecked (tool arguments, API bodies). */
export interface ScheduleInput {
  readonly type?: unknown;
  readonly hour?: unknown;
  readonly minute?: unknown;
  readonly dayOfWeek?: unknown;
  readonly date?: unknown;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Checks a schedule and gives it its canonical form, or throws `invalid_schedule` saying what to fix. */
export function parseSchedule(input: ScheduleInput): TaskSchedule {
  const type = input.type;
  if (typeof type !== 'string' || !(SCHEDULE_TYPES as readonly string[]).includes(type)) {
    throw scheduledTaskErrors.invalidSchedule(`schedule_type must be one of ${SCHEDULE_TYPES.join(', ')}.`);
  }
  const hour = wholeNumber('hour', input.hour, 0, 23);
  const minute = wholeNumber('minute', input.minute, 0, 59);
  if (type !== 'weekly' && input.dayOfWeek !== undefined) {
    throw scheduledTaskErrors.invalidSchedule(`day_of_week is only for weekly tasks; leave it out for a ${type} task, or use schedule_type weekly.`);
  }
  if (type !== 'one_time' && input.date !== undefined) {
    throw scheduledTaskErrors.invalidSchedule(`date is only for one_time tasks; leave it out for a ${type} task, or use schedule_type one_time.`);
  }
  if (type === 'daily') return { type, hour, minute };
  if (type === 'weekly') return { type, dayOfWeek: dayOfWeek(input.dayOfWeek), hour, minute };
  return { type: 'one_time', date: calendarDate(input.date), hour, minute };
}

/** Fields an update may change; what it leaves out is kept from the current schedule when it still applies. */
export function mergeSchedule(current: TaskSchedule, patch: ScheduleInput): ScheduleInput {
  const type = patch.type ?? current.type;
  return {
    type,
    hour: patch.hour ?? current.hour,
    minute: patch.minute ?? current.minute,
    dayOfWeek: patch.dayOfWeek ?? (type === 'weekly' && current.type === 'weekly' ? current.dayOfWeek : undefined),
    date: patch.date ?? (type === 'one_time' && current.type === 'one_time' ? current.date : undefined),
  };
}

export function sameSchedule(a: TaskSchedule, b: TaskSchedule): boolean {
  return (
    a.type === b.type &&
    a.hour === b.hour &&
    a.minute === b.minute &&
    (a.type !== 'weekly' || a.dayOfWeek === (b as typeof a).dayOfWeek) &&
    (a.type !== 'one_time' || a.date === (b as typeof a).date)
  );
}

/** `YYYY-MM-DD HH:MM` of a one-time schedule: compares as text with `localMinuteOf`. */
export function localMinuteOfSchedule(schedule: Extract<TaskSchedule, { type: 'one_time' }>): string {
  return `${schedule.date} ${pad(schedule.hour)}:${pad(schedule.minute)}`;
}

/**
 * `YYYY-MM-DD HH:MM` of an instant on the wall clock of a time zone. Comparing wall-clock text
 * tells whether a one-time task is in the past without any offset arithmetic (which the server
 * does with croner); a task set for the current minute still counts as future.
 */
export function localMinuteOf(instant: Date, timeZone: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).formatToParts(instant);
  } catch {
    throw scheduledTaskErrors.invalidTimeZone(timeZone);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

function wholeNumber(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw scheduledTaskErrors.invalidSchedule(`${field} must be a whole number from ${min} to ${max}${value === undefined ? '' : ` (got ${JSON.stringify(value)})`}.`);
  }
  return value;
}

function dayOfWeek(value: unknown): DayOfWeek {
  if (value === undefined) {
    throw scheduledTaskErrors.invalidSchedule(`A weekly task needs day_of_week: one of ${DAYS_OF_WEEK.join(', ')}.`);
  }
  const day = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!(DAYS_OF_WEEK as readonly string[]).includes(day)) {
    throw scheduledTaskErrors.invalidSchedule(`day_of_week ${JSON.stringify(value)} is not a day: use one of ${DAYS_OF_WEEK.join(', ')}.`);
  }
  return day as DayOfWeek;
}

function calendarDate(value: unknown): string {
  if (value === undefined) throw scheduledTaskErrors.invalidSchedule('A one_time task needs a date (YYYY-MM-DD).');
  const match = typeof value === 'string' ? DATE.exec(value.trim()) : null;
  if (!match) throw scheduledTaskErrors.invalidSchedule(`date ${JSON.stringify(value)} is not a date: use YYYY-MM-DD, e.g. 2026-03-01.`);
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (y < 1970 || day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) {
    throw scheduledTaskErrors.invalidSchedule(`date ${(value as string).trim()} does not exist in the calendar: check the month and day.`);
  }
  return (value as string).trim();
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

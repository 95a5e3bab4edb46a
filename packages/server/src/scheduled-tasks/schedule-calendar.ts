import { Cron } from 'croner';
import { DAYS_OF_WEEK, type TaskSchedule } from '@oneclaw/core';

/**
 * Calendar arithmetic of schedules, by croner in the given IANA zone. Slots are whole minutes
 * of wall-clock time; across DST croner runs a time that does not exist (02:30 on the spring
 * change) at the first valid minute after the gap (03:00), and a time that occurs twice (02:30
 * on the autumn change) once, at its first occurrence.
 */
export function slotAfter(schedule: TaskSchedule, after: Date, timeZone: string): Date | undefined {
  if (schedule.type === 'one_time') {
    const slot = oneTimeSlot(schedule, timeZone);
    return slot.getTime() > after.getTime() ? slot : undefined;
  }
  return cronOf(schedule, timeZone).nextRun(after) ?? undefined;
}

/** The latest slot in (from, to], or undefined: the one a tick at `to` runs (earlier ones are not caught up). */
export function latestSlotIn(schedule: TaskSchedule, from: Date, to: Date, timeZone: string): Date | undefined {
  if (to.getTime() <= from.getTime()) return undefined;
  if (schedule.type === 'one_time') {
    const slot = oneTimeSlot(schedule, timeZone);
    return slot > from && slot <= to ? slot : undefined;
  }
  // The last slot at or before `to`, found going backwards (croner looks before a reference
  // rounded to its second, so look from just after `to` and drop a slot beyond it).
  const runs = cronOf(schedule, timeZone).previousRuns(2, new Date(to.getTime() + 1000));
  const latest = runs.find((slot) => slot.getTime() <= to.getTime());
  return latest && latest.getTime() > from.getTime() ? latest : undefined;
}

/** The instant of a one-time schedule in the zone. */
export function oneTimeSlot(schedule: Extract<TaskSchedule, { type: 'one_time' }>, timeZone: string): Date {
  const [year, month, day] = schedule.date.split('-').map(Number) as [number, number, number];
  const cron = new Cron(`0 ${schedule.minute} ${schedule.hour} ${day} ${month} * ${year}`, { timezone: timeZone, mode: '7-part', paused: true });
  // Two days before the date in UTC is before that wall-clock minute in every zone.
  const slot = cron.nextRun(new Date(Date.UTC(year, month - 1, day) - 2 * 86_400_000));
  if (!slot) throw new Error(`No instant for ${schedule.date} ${schedule.hour}:${schedule.minute} in ${timeZone}.`);
  return slot;
}

function cronOf(schedule: Exclude<TaskSchedule, { type: 'one_time' }>, timeZone: string): Cron {
  // croner counts Sunday as 0; DAYS_OF_WEEK starts on Monday.
  const dayOfWeek = schedule.type === 'weekly' ? String((DAYS_OF_WEEK.indexOf(schedule.dayOfWeek) + 1) % 7) : '*';
  return new Cron(`0 ${schedule.minute} ${schedule.hour} * * ${dayOfWeek}`, { timezone: timeZone, paused: true });
}

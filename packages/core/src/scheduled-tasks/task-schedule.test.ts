import { describe, expect, it } from '@jest/globals';
import { localMinuteOf, mergeSchedule, parseSchedule, sameSchedule, type ScheduleInput } from './task-schedule';

function codeOf(input: ScheduleInput): { code: string; message: string } {
  try {
    parseSchedule(input);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected invalid_schedule');
}

describe('task schedules', () => {
  it('accepts the three types in canonical form (weekly day names in any case)', () => {
    expect(parseSchedule({ type: 'daily', hour: 7, minute: 30 })).toEqual({ type: 'daily', hour: 7, minute: 30 });
    expect(parseSchedule({ type: 'weekly', hour: 0, minute: 0, dayOfWeek: ' Monday ' })).toEqual({ type: 'weekly', dayOfWeek: 'monday', hour: 0, minute: 0 });
    expect(parseSchedule({ type: 'one_time', hour: 23, minute: 59, date: '2028-02-29' })).toEqual({ type: 'one_time', date: '2028-02-29', hour: 23, minute: 59 });
  });

  it.each([
    ['an unknown type', { type: 'hourly', hour: 1, minute: 0 }, 'schedule_type must be one of one_time, daily, weekly'],
    ['hour 24', { type: 'daily', hour: 24, minute: 0 }, 'hour must be a whole number from 0 to 23 (got 24)'],
    ['hour -1', { type: 'daily', hour: -1, minute: 0 }, 'hour must be a whole number from 0 to 23'],
    ['minute 60', { type: 'daily', hour: 1, minute: 60 }, 'minute must be a whole number from 0 to 59 (got 60)'],
    ['a fractional minute', { type: 'daily', hour: 1, minute: 1.5 }, 'minute must be a whole number'],
    ['a missing hour', { type: 'daily', minute: 0 }, 'hour must be a whole number from 0 to 23.'],
    ['weekly without day_of_week', { type: 'weekly', hour: 9, minute: 0 }, 'A weekly task needs day_of_week'],
    ['weekly with a made-up day', { type: 'weekly', hour: 9, minute: 0, dayOfWeek: 'funday' }, 'is not a day'],
    ['one_time without a date', { type: 'one_time', hour: 9, minute: 0 }, 'A one_time task needs a date (YYYY-MM-DD)'],
    ['one_time with a malformed date', { type: 'one_time', hour: 9, minute: 0, date: '01/03/2026' }, 'use YYYY-MM-DD'],
    ['one_time on 2026-02-30', { type: 'one_time', hour: 9, minute: 0, date: '2026-02-30' }, 'date 2026-02-30 does not exist in the calendar'],
    ['one_time on 2026-02-29 (not a leap year)', { type: 'one_time', hour: 9, minute: 0, date: '2026-02-29' }, 'does not exist'],
    ['one_time in month 13', { type: 'one_time', hour: 9, minute: 0, date: '2026-13-01' }, 'does not exist'],
    ['daily with a date', { type: 'daily', hour: 9, minute: 0, date: '2026-03-01' }, 'date is only for one_time tasks'],
    ['daily with a day_of_week', { type: 'daily', hour: 9, minute: 0, dayOfWeek: 'monday' }, 'day_of_week is only for weekly tasks'],
  ])('refuses %s as invalid_schedule, saying what to fix', (_, input, message) => {
    const error = codeOf(input);
    expect(error.code).toBe('invalid_schedule');
    expect(error.message).toContain(message);
  });

  it('merges an update into the current schedule, keeping what still applies', () => {
    const weekly = parseSchedule({ type: 'weekly', dayOfWeek: 'friday', hour: 9, minute: 0 });
    expect(parseSchedule(mergeSchedule(weekly, { hour: 10 }))).toEqual({ type: 'weekly', dayOfWeek: 'friday', hour: 10, minute: 0 });
    // Switching to daily drops the day; switching to one_time needs a date the weekly never had.
    expect(parseSchedule(mergeSchedule(weekly, { type: 'daily' }))).toEqual({ type: 'daily', hour: 9, minute: 0 });
    expect(() => parseSchedule(mergeSchedule(weekly, { type: 'one_time' }))).toThrow('A one_time task needs a date');
    const daily = parseSchedule({ type: 'daily', hour: 9, minute: 0 });
    expect(() => parseSchedule(mergeSchedule(daily, { type: 'weekly' }))).toThrow('A weekly task needs day_of_week');
    expect(sameSchedule(daily, parseSchedule(mergeSchedule(daily, { minute: 0 })))).toBe(true);
    expect(sameSchedule(weekly, parseSchedule(mergeSchedule(weekly, { dayOfWeek: 'monday' })))).toBe(false);
  });

  it('reads an instant on the wall clock of a zone (DST included) and refuses an unknown zone', () => {
    expect(localMinuteOf(new Date('2026-07-01T05:30:00Z'), 'Europe/Berlin')).toBe('2026-07-01 07:30');
    expect(localMinuteOf(new Date('2026-01-01T05:30:00Z'), 'Europe/Berlin')).toBe('2026-01-01 06:30');
    expect(localMinuteOf(new Date('2026-01-01T00:00:00Z'), 'America/New_York')).toBe('2025-12-31 19:00');
    expect(localMinuteOf(new Date('2026-01-01T00:00:00Z'), 'UTC')).toBe('2026-01-01 00:00');
    expect(() => localMinuteOf(new Date(), 'Mars/Olympus')).toThrow(expect.objectContaining({ code: 'invalid_time_zone' }));
  });
});

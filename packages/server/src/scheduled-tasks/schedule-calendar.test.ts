import { describe, expect, it } from '@jest/globals';
import { latestSlotIn, oneTimeSlot, slotAfter } from './schedule-calendar';

const iso = (d: Date | undefined) => d?.toISOString();

describe('schedule calendar (croner, in the configured zone)', () => {
  it('daily: the next slot follows the wall clock across DST (New York, 2026-03-08 and 2026-11-01)', () => {
    const daily = { type: 'daily', hour: 7, minute: 30 } as const;
    expect(iso(slotAfter(daily, new Date('2026-03-07T12:30:00Z'), 'America/New_York'))).toBe('2026-03-08T11:30:00.000Z');
    expect(iso(slotAfter(daily, new Date('2026-10-31T11:30:00Z'), 'America/New_York'))).toBe('2026-11-01T12:30:00.000Z');
  });

  it('weekly: the named day (croner counts Sunday as 0, we count from Monday)', () => {
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
    // 2026-03-01 is a Sunday.
    expect(days.map((dayOfWeek) => iso(slotAfter({ type: 'weekly', dayOfWeek, hour: 9, minute: 0 }, new Date('2026-03-01T12:00:00Z'), 'UTC')))).toEqual([
      '2026-03-02T09:00:00.000Z',
      '2026-03-03T09:00:00.000Z',
      '2026-03-04T09:00:00.000Z',
      '2026-03-05T09:00:00.000Z',
      '2026-03-06T09:00:00.000Z',
      '2026-03-07T09:00:00.000Z',
      '2026-03-08T09:00:00.000Z',
    ]);
  });

  it('one-time: the instant of the date and time in the zone, including a time in the spring gap', () => {
    expect(iso(oneTimeSlot({ type: 'one_time', date: '2026-03-01', hour: 7, minute: 30 }, 'Europe/Berlin'))).toBe('2026-03-01T06:30:00.000Z');
    expect(iso(oneTimeSlot({ type: 'one_time', date: '2026-07-01', hour: 0, minute: 0 }, 'Pacific/Auckland'))).toBe('2026-06-30T12:00:00.000Z');
    // 02:30 does not exist in Berlin on 2026-03-29: it runs at 03:00 CEST.
    expect(iso(oneTimeSlot({ type: 'one_time', date: '2026-03-29', hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe('2026-03-29T01:00:00.000Z');
    expect(slotAfter({ type: 'one_time', date: '2026-03-01', hour: 7, minute: 30 }, new Date('2026-03-01T06:30:00Z'), 'Europe/Berlin')).toBeUndefined();
  });

  it('latestSlotIn: the latest slot in (from, to], bounds exclusive then inclusive', () => {
    const daily = { type: 'daily', hour: 8, minute: 0 } as const;
    expect(iso(latestSlotIn(daily, new Date('2026-03-01T07:59:00Z'), new Date('2026-03-01T08:00:00Z'), 'UTC'))).toBe('2026-03-01T08:00:00.000Z');
    expect(latestSlotIn(daily, new Date('2026-03-01T08:00:00Z'), new Date('2026-03-01T08:01:00Z'), 'UTC')).toBeUndefined();
    expect(latestSlotIn(daily, new Date('2026-03-01T07:00:00Z'), new Date('2026-03-01T07:59:59.900Z'), 'UTC')).toBeUndefined();
    expect(iso(latestSlotIn(daily, new Date('2026-03-01T00:00:00Z'), new Date('2026-03-05T12:00:00Z'), 'UTC'))).toBe('2026-03-05T08:00:00.000Z');
    expect(latestSlotIn(daily, new Date('2026-03-02T00:00:00Z'), new Date('2026-03-01T00:00:00Z'), 'UTC')).toBeUndefined();
    const once = { type: 'one_time', date: '2026-03-01', hour: 8, minute: 0 } as const;
    expect(iso(latestSlotIn(once, new Date('2026-03-01T07:00:00Z'), new Date('2026-03-01T09:00:00Z'), 'UTC'))).toBe('2026-03-01T08:00:00.000Z');
    expect(latestSlotIn(once, new Date('2026-03-01T08:00:00Z'), new Date('2026-03-01T09:00:00Z'), 'UTC')).toBeUndefined();
  });
});

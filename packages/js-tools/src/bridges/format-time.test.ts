import { describe, expect, it } from '@jest/globals';
import { formatTime } from './format-time';

const at = new Date('2026-11-22T13:03:05.250Z');

describe('_time(timezone, format)', () => {
  it('ISO 8601 with the zone offset (Z for UTC), in the zone named or the default zone', () => {
    expect(formatTime(at, 'Europe/Paris', undefined, 'UTC')).toBe('2026-11-22T14:03:05+01:00');
    expect(formatTime(at, 'America/New_York', 'iso8601', 'UTC')).toBe('2026-11-22T08:03:05-05:00');
    expect(formatTime(at, 'Asia/Kathmandu', 'ISO8601', 'UTC')).toBe('2026-11-22T18:48:05+05:45');
    expect(formatTime(at, undefined, undefined, 'UTC')).toBe('2026-11-22T13:03:05Z');
    expect(formatTime(at, '', undefined, 'Asia/Tokyo')).toBe('2026-11-22T22:03:05+09:00');
  });

  it('the date rolls over with the zone', () => {
    expect(formatTime(new Date('2026-12-31T23:30:00Z'), 'Pacific/Auckland', 'iso8601', 'UTC')).toBe('2027-01-01T12:30:00+13:00');
  });

  it('human_readable is a sentence with weekday, date, 24-hour time, offset and zone', () => {
    expect(formatTime(at, 'Europe/Paris', 'human_readable', 'UTC')).toBe('Sunday, November 22, 2026 at 14:03:05 GMT+01:00 (Europe/Paris)');
    expect(formatTime(at, 'UTC', 'human readable', 'UTC')).toBe('Sunday, November 22, 2026 at 13:03:05 GMT+00:00 (UTC)');
  });

  it('an unknown zone or format is a clear error with a code', () => {
    expect(() => formatTime(at, 'Mars/Olympus', undefined, 'UTC')).toThrow(
      expect.objectContaining({ code: 'invalid_timezone', message: expect.stringMatching(/Unknown timezone 'Mars\/Olympus'/) }),
    );
    expect(() => formatTime(at, 'UTC', 'unix', 'UTC')).toThrow(expect.objectContaining({ code: 'invalid_format' }));
  });
});

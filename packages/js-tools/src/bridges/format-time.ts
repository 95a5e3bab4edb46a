import { BridgeError } from '../sandbox/bridge-host';

export type TimeFormat = 'iso8601' | 'human_readable';

/**
 * `_time(timezone, format)` for the guest and the `get_current_time` tool: ISO 8601 with the
 * zone's offset (`2026-11-22T14:03:05+01:00`), or a sentence a person reads
 * (`Sunday, November 22, 2026 at 14:03:05 GMT+01:00 (Europe/Paris)`).
 */
export function formatTime(now: Date, timezone: string | undefined, format: string | undefined, defaultTimeZone: string): string {
  const zone = timezone === undefined || timezone.trim() === '' ? defaultTimeZone : timezone.trim();
  const kind = normaliseFormat(format);
  let parts: Record<string, string>;
  try {
    parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        weekday: 'long',
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'longOffset',
      })
        .formatToParts(now)
        .map((p) => [p.type, p.value]),
    );
  } catch {
    throw new BridgeError('invalid_timezone', `Unknown timezone '${zone}'. Use an IANA name such as 'Europe/Paris' or 'UTC'.`);
  }
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : (parts.timeZoneName ?? 'GMT+00:00').replace('GMT', '');
  if (kind === 'human_readable') {
    return `${parts.weekday}, ${parts.month} ${parts.day}, ${parts.year} at ${parts.hour}:${parts.minute}:${parts.second} GMT${offset} (${zone})`;
  }
  const numeric = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${numeric.year}-${numeric.month}-${numeric.day}T${parts.hour}:${parts.minute}:${parts.second}${offset === '+00:00' && zone === 'UTC' ? 'Z' : offset}`;
}

function normaliseFormat(format: string | undefined): TimeFormat {
  const f = (format ?? 'iso8601').trim().toLowerCase().replace(/[\s-]/g, '_');
  if (f === '' || f === 'iso8601' || f === 'iso_8601' || f === 'iso') return 'iso8601';
  if (f === 'human_readable' || f === 'human') return 'human_readable';
  throw new BridgeError('invalid_format', `Unknown time format '${format}'. Use 'iso8601' or 'human_readable'.`);
}

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

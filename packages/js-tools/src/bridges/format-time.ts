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
  const formatters = formattersFor(zone);
  const parts = Object.fromEntries(formatters.words.formatToParts(now).map((p) => [p.type, p.value]));
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : (parts.timeZoneName ?? 'GMT+00:00').replace('GMT', '');
  if (kind === 'human_readable') {
    return `${parts.weekday}, ${parts.month} ${parts.day}, ${parts.year} at ${parts.hour}:${parts.minute}:${parts.second} GMT${offset} (${zone})`;
  }
  const numeric = Object.fromEntries(formatters.digits.formatToParts(now).map((p) => [p.type, p.value]));
  return `${numeric.year}-${numeric.month}-${numeric.day}T${parts.hour}:${parts.minute}:${parts.second}${offset === '+00:00' && zone === 'UTC' ? 'Z' : offset}`;
}

interface ZoneFormatters {
  /** Weekday and month as words, 24-hour time, the offset as `GMT+01:00`. */
  readonly words: Intl.DateTimeFormat;
  /** The date as digits, for ISO 8601. */
  readonly digits: Intl.DateTimeFormat;
}

/** Building an Intl.DateTimeFormat costs far more than using one, so each zone's are kept. */
const formattersByZone = new Map<string, ZoneFormatters>();
const MAX_CACHED_ZONES = 64;

function formattersFor(zone: string): ZoneFormatters {
  const cached = formattersByZone.get(zone);
  if (cached) return cached;
  let formatters: ZoneFormatters;
  try {
    formatters = {
      words: new Intl.DateTimeFormat('en-US', {
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
      }),
      digits: new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit' }),
    };
  } catch {
    throw new BridgeError('invalid_timezone', `Unknown timezone '${zone}'. Use an IANA name such as 'Europe/Paris' or 'UTC'.`);
  }
  if (formattersByZone.size >= MAX_CACHED_ZONES) formattersByZone.clear();
  formattersByZone.set(zone, formatters);
  return formatters;
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

import { randomBytes } from 'node:crypto';
import { GoogleApiError, requireFields, requireQuery, type FakeGoogleApi, type GoogleRequest } from '../fake-google-api';
import { pageOf } from './paging';

const HOST = 'www.googleapis.com';
const V3 = '/calendar/v3';

export interface EventDateTime {
  date?: string;
  dateTime?: string;
  timeZone?: string;
}

export interface EventAttendee {
  email: string;
  displayName?: string;
  responseStatus: string;
  self?: boolean;
  organizer?: boolean;
  optional?: boolean;
}

/** An event as the Calendar API's Events resource describes it (the fields the fake models). */
export interface CalendarEvent {
  kind: 'calendar#event';
  etag: string;
  id: string;
  status: string;
  htmlLink: string;
  created: string;
  updated: string;
  summary?: string;
  description?: string;
  location?: string;
  creator: { email: string; self?: boolean };
  organizer: { email: string; displayName?: string; self?: boolean };
  start: EventDateTime;
  end: EventDateTime;
  recurrence?: string[];
  recurringEventId?: string;
  originalStartTime?: EventDateTime;
  transparency?: string;
  iCalUID: string;
  sequence: number;
  attendees?: EventAttendee[];
  reminders: { useDefault: boolean };
  eventType: string;
  [field: string]: unknown;
}

export interface FakeCalendar {
  id: string;
  summary: string;
  description?: string;
  timeZone: string;
  accessRole: 'owner' | 'writer' | 'reader';
  primary?: boolean;
  colorId: string;
  backgroundColor: string;
  foregroundColor: string;
  etag: string;
  readonly events: Map<string, CalendarEvent>;
}

export interface CalendarFake {
  /** The signed-in user's address: the id of the primary calendar. */
  readonly userEmail: string;
  /** The user's calendar list by id, seeded with the primary, a family and a read-only holiday calendar. */
  readonly calendars: Map<string, FakeCalendar>;
  /** A stored event (not an occurrence of a recurring one), or undefined. */
  event(calendarId: string, eventId: string): CalendarEvent | undefined;
}

const USER = 'ana.silva@example.com';
const FAMILY = 'family4k2q8c1m0@group.calendar.google.com';
const HOLIDAYS = 'en.french#holiday@group.v.calendar.google.com';
const RESPONSES = ['needsAction', 'declined', 'tentative', 'accepted'];
const READ_ONLY = ['kind', 'etag', 'id', 'htmlLink', 'created', 'updated', 'creator', 'organizer', 'iCalUID', 'recurringEventId', 'originalStartTime', 'eventType'];

/**
 * A fake of the Google Calendar API v3 (https://developers.google.com/calendar/api/v3/reference):
 * an in-memory calendar list, events, free/busy and colours for one user, seeded with a few events
 * in May 2024 (a weekly stand-up, a dentist appointment, an all-day offsite, a review the user is
 * invited to, and two public holidays on a read-only calendar).
 *
 * Like the API, it resolves "primary", requires URL-encoded calendar ids, answers 404 for unknown
 * calendars and events and 410 for an event deleted twice, refuses writes to a reader's calendar
 * (403), insists on RFC 3339 timestamps with an offset for timeMin/timeMax, on `start`/`end` with a
 * date or a dateTime (and a time zone when the dateTime has no offset), on `orderBy=startTime` only
 * with `singleEvents=true`, and returns dateTimes with the event zone's offset. Recurring events are
 * expanded for DAILY and WEEKLY RRULEs (INTERVAL, COUNT, UNTIL); a single occurrence can be read by
 * its instance id, but changing one occurrence (an exception) is not modelled (501).
 */
export function registerCalendarRoutes(api: FakeGoogleApi): CalendarFake {
  const calendars = new Map<string, FakeCalendar>();
  const fake: CalendarFake = {
    userEmail: USER,
    calendars,
    event: (calendarId, eventId) => calendars.get(calendarId === 'primary' ? USER : calendarId)?.events.get(eventId),
  };
  seed(calendars);

  const calendarOf = (req: GoogleRequest, write = false): FakeCalendar => {
    const id = req.params.calendarId === 'primary' ? USER : (req.params.calendarId as string);
    const calendar = calendars.get(id);
    if (!calendar) throw new GoogleApiError(404, 'Not Found');
    if (write && calendar.accessRole === 'reader') throw new GoogleApiError(403, 'You need to have writer access to this calendar.', 'PERMISSION_DENIED');
    return calendar;
  };
  const storedEvent = (calendar: FakeCalendar, eventId: string): CalendarEvent => {
    const event = calendar.events.get(eventId);
    if (event) return event;
    if (findInstance(calendar, eventId)) throw new GoogleApiError(501, 'The fake Calendar API does not model changes to single occurrences of a recurring event.', 'UNIMPLEMENTED');
    throw new GoogleApiError(404, 'Not Found');
  };

  api.route('GET', HOST, `${V3}/users/me/calendarList`, (req) => {
    const entries = [...calendars.values()].map(listEntry);
    const page = pageOf(entries, req, 'maxResults', 100, 250);
    return { json: { kind: 'calendar#calendarList', etag: etag(), nextSyncToken: token(), ...page } };
  });

  api.route('GET', HOST, `${V3}/users/me/calendarList/{calendarId}`, (req) => ({ json: listEntry(calendarOf(req)) }));

  api.route('GET', HOST, `${V3}/colors`, () => ({
    json: { kind: 'calendar#colors', updated: '2012-02-14T00:00:00.000Z', calendar: palette(CALENDAR_COLORS), event: palette(EVENT_COLORS) },
  }));

  api.route('POST', HOST, `${V3}/freeBusy`, (req) => {
    const body = req.json<{ timeMin?: string; timeMax?: string; items?: { id?: string }[] }>();
    requireFields(body, ['timeMin', 'timeMax', 'items']);
    const from = instant(body.timeMin, 'timeMin');
    const to = instant(body.timeMax, 'timeMax');
    if (to <= from) throw new GoogleApiError(400, 'The specified time range is empty.');
    if (!Array.isArray(body.items)) throw new GoogleApiError(400, "Invalid value for 'items': expected a list of {id}.");
    const result: Record<string, unknown> = {};
    for (const item of body.items) {
      if (typeof item?.id !== 'string' || item.id === '') throw new GoogleApiError(400, 'Missing calendar id in items.');
      const calendar = calendars.get(item.id === 'primary' ? USER : item.id);
      if (!calendar) {
        result[item.id] = { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] };
        continue;
      }
      const busy = occurrencesOf(calendar)
        .filter((o) => o.event.transparency !== 'transparent' && !declinedByUser(o.event) && o.endMs > from && o.startMs < to)
        .sort((a, b) => a.startMs - b.startMs)
        .map((o) => ({ start: utc(Math.max(o.startMs, from)), end: utc(Math.min(o.endMs, to)) }));
      result[item.id] = { busy };
    }
    return { json: { kind: 'calendar#freeBusy', timeMin: utc(from), timeMax: utc(to), calendars: result } };
  });

  api.route('POST', HOST, `${V3}/calendars`, (req) => {
    const body = req.json<{ summary?: string; description?: string; timeZone?: string }>();
    requireFields(body, ['summary']);
    const timeZone = body.timeZone ?? 'UTC';
    if (!validTimeZone(timeZone)) throw new GoogleApiError(400, `Invalid time zone definition: ${timeZone}`);
    const id = `${randomId()}@group.calendar.google.com`;
    const calendar: FakeCalendar = {
      id,
      summary: body.summary as string,
      ...(body.description !== undefined ? { description: body.description } : {}),
      timeZone,
      accessRole: 'owner',
      colorId: '14',
      backgroundColor: '#9fe1e7',
      foregroundColor: '#000000',
      etag: etag(),
      events: new Map(),
    };
    calendars.set(id, calendar);
    return { json: calendarResource(calendar) };
  });

  api.route('DELETE', HOST, `${V3}/calendars/{calendarId}`, (req) => {
    const calendar = calendarOf(req, true);
    if (calendar.primary) throw new GoogleApiError(400, 'Cannot delete the primary calendar: use calendars.clear to remove its events.', 'INVALID_ARGUMENT');
    if (calendar.accessRole !== 'owner') throw new GoogleApiError(403, 'You need to be the owner of this calendar to delete it.', 'PERMISSION_DENIED');
    calendars.delete(calendar.id);
    return { status: 204 };
  });

  api.route('GET', HOST, `${V3}/calendars/{calendarId}/events`, (req) => {
    const calendar = calendarOf(req);
    const single = booleanQuery(req, 'singleEvents');
    const orderBy = req.query.get('orderBy');
    if (orderBy !== null && orderBy !== 'startTime' && orderBy !== 'updated') throw new GoogleApiError(400, `Invalid value for orderBy: ${orderBy}`);
    if (orderBy === 'startTime' && !single) throw new GoogleApiError(400, 'The requested ordering is not available for the particular query.');
    const from = req.query.has('timeMin') ? instant(req.query.get('timeMin'), 'timeMin') : -Infinity;
    const to = req.query.has('timeMax') ? instant(req.query.get('timeMax'), 'timeMax') : Infinity;
    const words = (req.query.get('q') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const showDeleted = booleanQuery(req, 'showDeleted');
    let found = (single ? occurrencesOf(calendar, showDeleted) : spansOf(calendar, showDeleted)).filter(
      (o) => o.endMs > from && o.startMs < to && words.every((w) => searchText(o.event).includes(w)),
    );
    if (orderBy === 'startTime') found = found.sort((a, b) => a.startMs - b.startMs);
    if (orderBy === 'updated') found = found.sort((a, b) => a.event.updated.localeCompare(b.event.updated));
    const page = pageOf(
      found.map((o) => o.event),
      req,
      'maxResults',
      250,
      2500,
    );
    return { json: eventsList(calendar, page) };
  });

  api.route('POST', HOST, `${V3}/calendars/{calendarId}/events/quickAdd`, (req) => {
    const calendar = calendarOf(req, true);
    requireQuery(req, ['text']);
    const text = (req.query.get('text') as string).trim();
    if (text === '') throw new GoogleApiError(400, "Missing required parameter 'text'.");
    const event = newEvent(calendar, { ...parseQuickAdd(text, calendar.timeZone) });
    return { json: event };
  });

  api.route('POST', HOST, `${V3}/calendars/{calendarId}/events`, (req) => {
    const calendar = calendarOf(req, true);
    return { json: newEvent(calendar, req.json()) };
  });

  api.route('GET', HOST, `${V3}/calendars/{calendarId}/events/{eventId}/instances`, (req) => {
    const calendar = calendarOf(req);
    const event = calendar.events.get(req.params.eventId as string);
    if (!event) throw new GoogleApiError(404, 'Not Found');
    const from = req.query.has('timeMin') ? instant(req.query.get('timeMin'), 'timeMin') : -Infinity;
    const to = req.query.has('timeMax') ? instant(req.query.get('timeMax'), 'timeMax') : Infinity;
    const found = expand(event, calendar.timeZone).filter((o) => o.endMs > from && o.startMs < to);
    return {
      json: eventsList(
        calendar,
        pageOf(
          found.map((o) => o.event),
          req,
          'maxResults',
          250,
          2500,
        ),
      ),
    };
  });

  api.route('GET', HOST, `${V3}/calendars/{calendarId}/events/{eventId}`, (req) => {
    const calendar = calendarOf(req);
    const eventId = req.params.eventId as string;
    const event = calendar.events.get(eventId) ?? findInstance(calendar, eventId);
    if (!event) throw new GoogleApiError(404, 'Not Found');
    return { json: event };
  });

  api.route('PUT', HOST, `${V3}/calendars/{calendarId}/events/{eventId}`, (req) => {
    const calendar = calendarOf(req, true);
    const current = storedEvent(calendar, req.params.eventId as string);
    const body = req.json();
    if (body.id !== undefined && body.id !== current.id) throw new GoogleApiError(400, 'Invalid resource id value.');
    const writable = validEventBody(body, calendar);
    const replaced: CalendarEvent = {
      kind: 'calendar#event',
      etag: etag(),
      id: current.id,
      status: 'confirmed',
      htmlLink: current.htmlLink,
      created: current.created,
      updated: now(),
      creator: current.creator,
      organizer: current.organizer,
      iCalUID: current.iCalUID,
      reminders: { useDefault: true },
      eventType: current.eventType,
      ...writable,
      sequence: current.sequence + 1,
    };
    calendar.events.set(current.id, replaced);
    return { json: replaced };
  });

  api.route('DELETE', HOST, `${V3}/calendars/{calendarId}/events/{eventId}`, (req) => {
    const calendar = calendarOf(req, true);
    const event = storedEvent(calendar, req.params.eventId as string);
    if (event.status === 'cancelled') throw new GoogleApiError(410, 'Resource has been deleted', 'GONE');
    event.status = 'cancelled';
    event.updated = now();
    return { status: 204 };
  });

  return fake;
}

// ---- events ----

function newEvent(calendar: FakeCalendar, body: Record<string, unknown>): CalendarEvent {
  const id = typeof body.id === 'string' ? body.id : randomId();
  if (!/^[a-v0-9]{5,1024}$/.test(id)) throw new GoogleApiError(400, 'Invalid resource id value.');
  if (calendar.events.has(id)) throw new GoogleApiError(409, 'The requested identifier already exists.', 'ALREADY_EXISTS');
  const stamp = now();
  const event: CalendarEvent = {
    kind: 'calendar#event',
    etag: etag(),
    id,
    status: 'confirmed',
    htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(`${id} ${calendar.id}`).toString('base64url')}`,
    created: stamp,
    updated: stamp,
    creator: { email: USER, self: true },
    organizer: calendar.primary ? { email: USER, self: true } : { email: calendar.id, displayName: calendar.summary, self: true },
    iCalUID: `${id}@google.com`,
    sequence: 0,
    reminders: { useDefault: true },
    eventType: 'default',
    ...validEventBody(body, calendar),
  } as CalendarEvent;
  calendar.events.set(id, event);
  return event;
}

/** The writable fields of an event body, checked the way the API checks them. */
function validEventBody(body: Record<string, unknown>, calendar: FakeCalendar): Partial<CalendarEvent> & Pick<CalendarEvent, 'start' | 'end'> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!READ_ONLY.includes(key) && value !== null && value !== undefined) out[key] = value;
  const start = when(body.start, 'start', calendar.timeZone);
  const end = when(body.end, 'end', calendar.timeZone);
  if ((start.date === undefined) !== (end.date === undefined)) throw new GoogleApiError(400, 'Start and end times must either both be date or both be dateTime.');
  const span = { start: startMs(start, calendar.timeZone), end: startMs(end, calendar.timeZone) };
  if (span.end < span.start || (start.date !== undefined && span.end === span.start)) throw new GoogleApiError(400, 'The specified time range is empty.');
  out.start = start;
  out.end = end;
  if (out.status !== undefined && !['confirmed', 'tentative', 'cancelled'].includes(out.status as string))
    throw new GoogleApiError(400, `Invalid value for status: ${String(out.status)}`);
  if (out.recurrence !== undefined) {
    if (!Array.isArray(out.recurrence)) throw new GoogleApiError(400, 'Invalid recurrence: expected a list of RFC 5545 lines.');
    parseRule(out.recurrence as string[]);
  }
  if (out.attendees !== undefined) {
    if (!Array.isArray(out.attendees)) throw new GoogleApiError(400, 'Invalid attendees: expected a list.');
    const seen = new Set<string>();
    out.attendees = (out.attendees as Record<string, unknown>[]).map((a) => {
      const email = typeof a?.email === 'string' ? a.email : '';
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new GoogleApiError(400, 'Invalid attendee email.');
      if (seen.has(email.toLowerCase())) throw new GoogleApiError(400, `Duplicate attendee: ${email}`);
      seen.add(email.toLowerCase());
      const responseStatus = (a.responseStatus as string | undefined) ?? 'needsAction';
      if (!RESPONSES.includes(responseStatus)) throw new GoogleApiError(400, `Invalid value for attendee responseStatus: ${responseStatus}`);
      return { ...a, email, responseStatus, ...(email.toLowerCase() === USER ? { self: true } : {}) } as EventAttendee;
    });
  }
  return out as Partial<CalendarEvent> & Pick<CalendarEvent, 'start' | 'end'>;
}

function when(value: unknown, which: 'start' | 'end', calendarZone: string): EventDateTime {
  if (!value || typeof value !== 'object') throw new GoogleApiError(400, `Missing ${which} time.`);
  const { date, dateTime, timeZone } = value as EventDateTime;
  if (timeZone !== undefined && !validTimeZone(timeZone)) throw new GoogleApiError(400, `Invalid time zone definition for ${which} time.`);
  if (date !== undefined && dateTime !== undefined) throw new GoogleApiError(400, `Invalid ${which} time: give either date or dateTime, not both.`);
  if (date !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new GoogleApiError(400, `Invalid ${which} date: ${date}`);
    return { date };
  }
  if (dateTime === undefined) throw new GoogleApiError(400, `Missing ${which} time.`);
  const parsed = DATE_TIME.exec(dateTime);
  if (!parsed) throw new GoogleApiError(400, `Invalid ${which} dateTime: ${dateTime}`);
  if (!parsed[8] && !timeZone) throw new GoogleApiError(400, `Missing time zone definition for ${which} time.`);
  const ms = parseDateTime(dateTime, timeZone ?? calendarZone);
  return { dateTime: inZone(ms, timeZone ?? calendarZone), ...(timeZone ? { timeZone } : {}) };
}

function startMs(value: EventDateTime, calendarZone: string): number {
  if (value.date !== undefined) return wallToUtc(Date.parse(`${value.date}T00:00:00Z`), calendarZone);
  return parseDateTime(value.dateTime as string, value.timeZone ?? calendarZone);
}

interface Occurrence {
  readonly event: CalendarEvent;
  readonly startMs: number;
  readonly endMs: number;
}

function spansOf(calendar: FakeCalendar, showDeleted = false): Occurrence[] {
  return [...calendar.events.values()]
    .filter((e) => showDeleted || e.status !== 'cancelled')
    .map((event) => ({ event, startMs: startMs(event.start, calendar.timeZone), endMs: startMs(event.end, calendar.timeZone) }));
}

/** Every event with its recurring ones expanded into occurrences (`singleEvents=true`). */
function occurrencesOf(calendar: FakeCalendar, showDeleted = false): Occurrence[] {
  return spansOf(calendar, showDeleted).flatMap((o) => (o.event.recurrence ? expand(o.event, calendar.timeZone) : [o]));
}

function expand(event: CalendarEvent, calendarZone: string): Occurrence[] {
  const first = startMs(event.start, calendarZone);
  const duration = startMs(event.end, calendarZone) - first;
  const rule = parseRule(event.recurrence ?? []);
  if (!rule) return [{ event, startMs: first, endMs: first + duration }];
  const zone = event.start.timeZone ?? calendarZone;
  const wallStart = first + zoneOffset(first, zone);
  const out: Occurrence[] = [];
  for (let k = 0; out.length < (rule.count ?? 1000); k += 1) {
    const begin = wallToUtc(wallStart + k * rule.stepDays * 86_400_000, zone);
    if (rule.until !== undefined && begin > rule.until) break;
    const allDay = event.start.date !== undefined;
    const at = (ms: number): EventDateTime =>
      allDay
        ? { date: new Date(ms + zoneOffset(ms, zone)).toISOString().slice(0, 10) }
        : { dateTime: inZone(ms, zone), ...(event.start.timeZone ? { timeZone: event.start.timeZone } : {}) };
    const start = at(begin);
    const suffix = allDay ? (start.date as string).replace(/-/g, '') : utc(begin).replace(/[-:]/g, '');
    const { recurrence: _recurrence, ...rest } = event;
    out.push({
      event: { ...rest, id: `${event.id}_${suffix}`, recurringEventId: event.id, originalStartTime: start, start, end: at(begin + duration) },
      startMs: begin,
      endMs: begin + duration,
    });
  }
  return out;
}

function findInstance(calendar: FakeCalendar, instanceId: string): CalendarEvent | undefined {
  const base = calendar.events.get(instanceId.replace(/_[0-9TZ]+$/, ''));
  if (!base?.recurrence || base.id === instanceId) return undefined;
  return expand(base, calendar.timeZone).find((o) => o.event.id === instanceId)?.event;
}

interface Rule {
  readonly stepDays: number;
  readonly count?: number;
  readonly until?: number;
}

function parseRule(recurrence: readonly string[]): Rule | undefined {
  const line = recurrence.find((r) => typeof r === 'string' && r.startsWith('RRULE:'));
  if (!line) return undefined;
  const parts = new Map(
    line
      .slice('RRULE:'.length)
      .split(';')
      .map((p) => p.split('=') as [string, string]),
  );
  const freq = parts.get('FREQ');
  if (freq !== 'DAILY' && freq !== 'WEEKLY') throw new GoogleApiError(501, `The fake Calendar API only expands DAILY and WEEKLY rules, not ${String(freq)}.`, 'UNIMPLEMENTED');
  const interval = Number(parts.get('INTERVAL') ?? '1');
  const until = parts.get('UNTIL');
  const untilMatch = until ? /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(until) : null;
  if (until && !untilMatch) throw new GoogleApiError(400, `Invalid recurrence rule: UNTIL=${until}`);
  return {
    stepDays: (freq === 'DAILY' ? 1 : 7) * interval,
    ...(parts.has('COUNT') ? { count: Number(parts.get('COUNT')) } : {}),
    ...(untilMatch ? { until: Date.UTC(+untilMatch[1]!, +untilMatch[2]! - 1, +untilMatch[3]!, +(untilMatch[4] ?? 23), +(untilMatch[5] ?? 59), +(untilMatch[6] ?? 59)) } : {}),
  };
}

function declinedByUser(event: CalendarEvent): boolean {
  return event.attendees?.some((a) => a.self && a.responseStatus === 'declined') ?? false;
}

function searchText(event: CalendarEvent): string {
  const attendees = (event.attendees ?? []).map((a) => `${a.email} ${a.displayName ?? ''}`);
  return [event.summary, event.description, event.location, ...attendees].filter(Boolean).join(' ').toLowerCase();
}

/** Google parses natural language; the fake knows "today", "tomorrow", YYYY-MM-DD and "at 1pm"/"at 13:30". */
function parseQuickAdd(text: string, zone: string): Record<string, unknown> {
  let summary = text;
  const today = new Date(Date.now() + zoneOffset(Date.now(), zone)).toISOString().slice(0, 10);
  let date = today;
  const iso = /\b(?:on\s+)?(\d{4}-\d{2}-\d{2})\b/i.exec(summary);
  const relative = /\b(today|tomorrow)\b/i.exec(summary);
  if (iso) {
    date = iso[1] as string;
    summary = summary.replace(iso[0], ' ');
  } else if (relative) {
    if ((relative[1] as string).toLowerCase() === 'tomorrow') date = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    summary = summary.replace(relative[0], ' ');
  }
  const time = /\b(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b|\bat\s+(\d{1,2}):(\d{2})\b/i.exec(summary);
  summary = (time ? summary.replace(time[0], ' ') : summary).replace(/\s+/g, ' ').trim() || text;
  if (!time) return { summary, start: { date }, end: { date: new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10) } };
  let hour = Number(time[1] ?? time[4]);
  const minute = Number(time[2] ?? time[5] ?? '0');
  const meridiem = time[3]?.toLowerCase();
  if (meridiem === 'pm' && hour < 12) hour += 12;
  if (meridiem === 'am' && hour === 12) hour = 0;
  const begin = wallToUtc(Date.parse(`${date}T00:00:00Z`) + (hour * 60 + minute) * 60_000, zone);
  return { summary, start: { dateTime: inZone(begin, zone), timeZone: zone }, end: { dateTime: inZone(begin + 3_600_000, zone), timeZone: zone } };
}

// ---- resources ----

function listEntry(calendar: FakeCalendar): Record<string, unknown> {
  const { kind: _kind, conferenceProperties: _conference, ...common } = calendarResource(calendar);
  return {
    kind: 'calendar#calendarListEntry',
    ...common,
    colorId: calendar.colorId,
    backgroundColor: calendar.backgroundColor,
    foregroundColor: calendar.foregroundColor,
    selected: true,
    accessRole: calendar.accessRole,
    defaultReminders: calendar.accessRole === 'reader' ? [] : [{ method: 'popup', minutes: 10 }],
    ...(calendar.primary ? { primary: true } : {}),
  };
}

function calendarResource(calendar: FakeCalendar): Record<string, unknown> {
  return {
    kind: 'calendar#calendar',
    etag: calendar.etag,
    id: calendar.id,
    summary: calendar.summary,
    ...(calendar.description !== undefined ? { description: calendar.description } : {}),
    timeZone: calendar.timeZone,
    conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
  };
}

function eventsList(calendar: FakeCalendar, page: { items: CalendarEvent[]; nextPageToken?: string }): Record<string, unknown> {
  return {
    kind: 'calendar#events',
    etag: etag(),
    summary: calendar.summary,
    updated: now(),
    timeZone: calendar.timeZone,
    accessRole: calendar.accessRole,
    defaultReminders: [],
    ...page,
  };
}

const EVENT_COLORS = ['#a4bdfc', '#7ae7bf', '#dbadff', '#ff887c', '#fbd75b', '#ffb878', '#46d6db', '#e1e1e1', '#5484ed', '#51b749', '#dc2127'];
const CALENDAR_COLORS = [
  '#ac725e',
  '#d06b64',
  '#f83a22',
  '#fa573c',
  '#ff7537',
  '#ffad46',
  '#42d692',
  '#16a765',
  '#7bd148',
  '#b3dc6c',
  '#fbe983',
  '#fad165',
  '#92e1c0',
  '#9fe1e7',
  '#9fc6e7',
  '#4986e7',
  '#9a9cff',
  '#b99aff',
  '#c2c2c2',
  '#cabdbf',
  '#cca6ac',
  '#f691b2',
  '#cd74e6',
  '#a47ae2',
];

function palette(colors: readonly string[]): Record<string, { background: string; foreground: string }> {
  return Object.fromEntries(colors.map((background, i) => [String(i + 1), { background, foreground: '#1d1d1d' }]));
}

// ---- query parameters and times ----

function booleanQuery(req: GoogleRequest, name: string): boolean {
  const value = req.query.get(name);
  if (value === null) return false;
  if (value !== 'true' && value !== 'false') throw new GoogleApiError(400, `Invalid boolean value for ${name}: ${value}`);
  return value === 'true';
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;

/** A timeMin/timeMax value: RFC 3339 with an offset, as the API requires. */
function instant(value: string | null | undefined, name: string): number {
  const parsed = DATE_TIME.exec(value ?? '');
  if (!parsed || !parsed[8] || Number.isNaN(Date.parse(value as string)))
    throw new GoogleApiError(400, `Bad Request: ${name} must be an RFC 3339 timestamp with a time zone offset, got '${String(value)}'.`);
  return Date.parse(value as string);
}

function parseDateTime(value: string, zone: string): number {
  const parsed = DATE_TIME.exec(value);
  if (!parsed) throw new GoogleApiError(400, `Invalid dateTime: ${value}`);
  if (parsed[8]) return Date.parse(value);
  const wall = Date.UTC(+parsed[1]!, +parsed[2]! - 1, +parsed[3]!, +parsed[4]!, +parsed[5]!, +(parsed[6] ?? 0));
  return wallToUtc(wall, zone);
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds to add to a UTC instant to get the wall clock of `zone`. */
function zoneOffset(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(ms));
  const part = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - Math.floor(ms / 1000) * 1000;
}

/** The instant at which `zone`'s wall clock shows `wall` (a wall-clock time written as UTC). */
function wallToUtc(wall: number, zone: string): number {
  const guess = wall - zoneOffset(wall, zone);
  return wall - zoneOffset(guess, zone);
}

/** `2024-05-06T09:30:00+02:00`: how the API writes a dateTime in the event's zone. */
function inZone(ms: number, zone: string): string {
  const offset = zoneOffset(ms, zone);
  const wall = new Date(ms + offset).toISOString().slice(0, 19);
  const minutes = Math.abs(offset / 60_000);
  const sign = offset < 0 ? '-' : '+';
  return offset === 0 && zone === 'UTC' ? `${wall}Z` : `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function utc(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function now(): string {
  return new Date().toISOString();
}

function etag(): string {
  return `"${Date.now()}${randomBytes(2).readUInt16BE(0)}"`;
}

function token(): string {
  return randomBytes(12).toString('base64url');
}

/** Event and calendar ids use base32hex (a-v, 0-9). */
function randomId(): string {
  const alphabet = 'abcdefghijklmnopqrstuv0123456789';
  return [...randomBytes(26)].map((b) => alphabet[b % 32]).join('');
}

// ---- seed ----

function seed(calendars: Map<string, FakeCalendar>): void {
  const calendar = (id: string, summary: string, accessRole: FakeCalendar['accessRole'], extra: Partial<FakeCalendar> = {}): FakeCalendar => {
    const c: FakeCalendar = {
      id,
      summary,
      timeZone: 'Europe/Paris',
      accessRole,
      colorId: '1',
      backgroundColor: '#ac725e',
      foregroundColor: '#1d1d1d',
      etag: etag(),
      events: new Map(),
      ...extra,
    };
    calendars.set(id, c);
    return c;
  };
  const primary = calendar(USER, USER, 'owner', { primary: true, colorId: '16', backgroundColor: '#4986e7' });
  const family = calendar(FAMILY, 'Family', 'owner', { description: 'School runs and weekend plans', colorId: '9', backgroundColor: '#7bd148' });
  const holidays = calendar(HOLIDAYS, 'Holidays in France', 'reader', { description: 'Holidays and Observances in France', colorId: '8', backgroundColor: '#16a765' });
  const paris = (t: string) => ({ dateTime: t, timeZone: 'Europe/Paris' });
  newEvent(primary, {
    id: 'standup0506',
    summary: 'Team stand-up',
    location: 'Meet',
    start: paris('2024-05-06T09:30:00'),
    end: paris('2024-05-06T09:45:00'),
    recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
  });
  newEvent(primary, {
    id: 'dentist0514',
    summary: 'Dentist appointment',
    location: '12 Rue de Rivoli, Paris',
    start: paris('2024-05-14T16:00:00'),
    end: paris('2024-05-14T17:00:00'),
  });
  newEvent(primary, { id: 'offsite0520', summary: 'Team offsite', description: 'Two days in Lyon', start: { date: '2024-05-20' }, end: { date: '2024-05-22' } });
  const review = newEvent(primary, {
    id: 'qbr0515',
    summary: 'Quarterly business review',
    description: 'Q2 numbers and hiring plan',
    start: paris('2024-05-15T14:00:00'),
    end: paris('2024-05-15T15:00:00'),
    attendees: [
      { email: 'lea.martin@example.com', displayName: 'Léa Martin', organizer: true, responseStatus: 'accepted' },
      { email: 'tom.baker@example.com', responseStatus: 'tentative' },
      { email: USER, responseStatus: 'needsAction' },
    ],
  });
  review.organizer = { email: 'lea.martin@example.com', displayName: 'Léa Martin' };
  review.creator = { email: 'lea.martin@example.com' };
  newEvent(family, { id: 'lesson0515', summary: 'Swimming lesson', location: 'Piscine Pontoise', start: paris('2024-05-15T17:30:00'), end: paris('2024-05-15T18:15:00') });
  newEvent(holidays, { id: '20240501fr', summary: 'Labour Day', transparency: 'transparent', start: { date: '2024-05-01' }, end: { date: '2024-05-02' } });
  newEvent(holidays, { id: '20240508fr', summary: 'Victory in Europe Day', transparency: 'transparent', start: { date: '2024-05-08' }, end: { date: '2024-05-09' } });
}

import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { registerCalendarRoutes, type CalendarFake } from '../testing/fake-google/calendar';
import { googleToolChecks, type GoogleToolChecks } from '../testing/google-tool-checks';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';

const USER = 'ana.silva@example.com';
const FAMILY = 'family4k2q8c1m0@group.calendar.google.com';
const HOLIDAYS = 'en.french#holiday@group.v.calendar.google.com';

let h: ToolHarness;
let cal: CalendarFake;
let c: GoogleToolChecks;
beforeAll(async () => {
  h = await startToolHarness({ files: ['google_calendar'] });
  cal = registerCalendarRoutes(h.api);
  c = googleToolChecks(h, 'Calendar', 'www.googleapis.com');
});
beforeEach(() => h.api.clearRequests());
afterAll(async () => {
  expect(h.api.unmatched).toEqual([]);
  await h.close();
});

describe('J8 google_calendar: reading calendars and events', () => {
  it('calendar_list_calendars: the calendar list with ids, names, roles and the primary flag', async () => {
    const result = c.ok(await h.call('calendar_list_calendars'));
    expect(c.sent()).toEqual(['GET /calendar/v3/users/me/calendarList']);
    expect(result.calendars).toEqual([
      { id: USER, summary: USER, timeZone: 'Europe/Paris', accessRole: 'owner', primary: true, backgroundColor: '#4986e7' },
      expect.objectContaining({ id: FAMILY, summary: 'Family', description: 'School runs and weekend plans', primary: false }),
      expect.objectContaining({ id: HOLIDAYS, accessRole: 'reader' }),
    ]);
  });

  it('calendar_list_events: single events in start order, bare dates made RFC 3339, recurring events expanded', async () => {
    const result = c.ok(await h.call('calendar_list_events', { calendar_id: 'primary', time_min: '2024-05-01', time_max: '2024-05-31T23:59:59' }));
    expect(c.sent()).toEqual(['GET /calendar/v3/calendars/primary/events']);
    expect(Object.fromEntries(c.request(0).query)).toEqual({ singleEvents: 'true', orderBy: 'startTime', timeMin: '2024-05-01T00:00:00Z', timeMax: '2024-05-31T23:59:59Z' });
    expect(result.events.map((e: { summary: string }) => e.summary)).toEqual([
      'Team stand-up',
      'Team stand-up',
      'Dentist appointment',
      'Quarterly business review',
      'Team offsite',
      'Team stand-up',
      'Team stand-up',
    ]);
    expect(result.events[0]).toMatchObject({
      id: 'standup0506_20240506T073000Z',
      recurringEventId: 'standup0506',
      start: { dateTime: '2024-05-06T09:30:00+02:00', timeZone: 'Europe/Paris' },
    });
    expect(result.events[4]).toMatchObject({ id: 'offsite0520', start: { date: '2024-05-20' }, end: { date: '2024-05-22' } });
    expect(result.timeZone).toBe('Europe/Paris');
    expect(result.more).toBeUndefined();
  });

  it('calendar_list_events: text query and max results; a note when more events match; calendar ids are URL-encoded', async () => {
    const dentist = c.ok(await h.call('calendar_list_events', { calendar_id: USER, query: 'rivoli' }));
    expect(c.sent()).toEqual([`GET /calendar/v3/calendars/${encodeURIComponent(USER)}/events`]);
    expect(c.request(0).query.get('q')).toBe('rivoli');
    expect(dentist.events).toEqual([expect.objectContaining({ id: 'dentist0514', location: '12 Rue de Rivoli, Paris' })]);

    h.api.clearRequests();
    const two = c.ok(await h.call('calendar_list_events', { calendar_id: 'primary', max_results: 2 }));
    expect(c.request(0).query.get('maxResults')).toBe('2');
    expect(two.events).toHaveLength(2);
    expect(two.more).toMatch(/More events/);

    h.api.clearRequests();
    const holidays = c.ok(await h.call('calendar_list_events', { calendar_id: HOLIDAYS }));
    expect(c.sent()).toEqual(['GET /calendar/v3/calendars/en.french%23holiday%40group.v.calendar.google.com/events']);
    expect(holidays.events.map((e: { summary: string }) => e.summary)).toEqual(['Labour Day', 'Victory in Europe Day']);
  });

  it('calendar_get_event: one event; an unknown id is a 404; a missing id is a validation error', async () => {
    const event = c.ok(await h.call('calendar_get_event', { calendar_id: 'primary', event_id: 'qbr0515' }));
    expect(c.sent()).toEqual(['GET /calendar/v3/calendars/primary/events/qbr0515']);
    expect(event).toMatchObject({
      id: 'qbr0515',
      summary: 'Quarterly business review',
      status: 'confirmed',
      organizer: 'lea.martin@example.com',
      start: { dateTime: '2024-05-15T14:00:00+02:00', timeZone: 'Europe/Paris' },
    });
    expect(event.attendees).toContainEqual({ email: USER, responseStatus: 'needsAction', self: true });
    expect(event.htmlLink).toMatch(/^https:\/\/www\.google\.com\/calendar\/event\?eid=/);

    c.apiError(await h.call('calendar_get_event', { calendar_id: 'primary', event_id: 'nosuchevent' }), 404);
    c.invalid(await h.call('calendar_get_event', { calendar_id: 'primary' }));
  });

  it('calendar_search_events: q on the primary calendar by default, 20 results, start order; attendees are searched too', async () => {
    const result = c.ok(await h.call('calendar_search_events', { query: 'tom.baker' }));
    expect(c.sent()).toEqual(['GET /calendar/v3/calendars/primary/events']);
    expect(Object.fromEntries(c.request(0).query)).toEqual({ q: 'tom.baker', singleEvents: 'true', orderBy: 'startTime', maxResults: '20' });
    expect(result.events.map((e: { id: string }) => e.id)).toEqual(['qbr0515']);

    h.api.clearRequests();
    const family = c.ok(await h.call('calendar_search_events', { query: 'swimming', calendar_id: FAMILY, max_results: 5 }));
    expect(c.sent()).toEqual([`GET /calendar/v3/calendars/${encodeURIComponent(FAMILY)}/events`]);
    expect(c.request(0).query.get('maxResults')).toBe('5');
    expect(family.events).toEqual([expect.objectContaining({ id: 'lesson0515', summary: 'Swimming lesson' })]);
    c.invalid(await h.call('calendar_search_events', {}));
  });

  it('calendar_instances: the occurrences of a recurring event, default 20, optionally from a time', async () => {
    const all = c.ok(await h.call('calendar_instances', { calendar_id: 'primary', event_id: 'standup0506' }));
    expect(c.sent()).toEqual(['GET /calendar/v3/calendars/primary/events/standup0506/instances']);
    expect(Object.fromEntries(c.request(0).query)).toEqual({ maxResults: '20' });
    expect(all.events.map((e: { start: { dateTime: string } }) => e.start.dateTime)).toEqual([
      '2024-05-06T09:30:00+02:00',
      '2024-05-13T09:30:00+02:00',
      '2024-05-20T09:30:00+02:00',
      '2024-05-27T09:30:00+02:00',
    ]);
    expect(all.events.every((e: { recurringEventId: string }) => e.recurringEventId === 'standup0506')).toBe(true);

    h.api.clearRequests();
    const later = c.ok(await h.call('calendar_instances', { calendar_id: 'primary', event_id: 'standup0506', time_min: '2024-05-15T00:00:00+02:00', max_results: 1 }));
    expect(Object.fromEntries(c.request(0).query)).toEqual({ timeMin: '2024-05-15T00:00:00+02:00', maxResults: '1' });
    expect(later.events.map((e: { id: string }) => e.id)).toEqual(['standup0506_20240520T073000Z']);
    expect(later.more).toBeDefined();

    // An occurrence id from a listing can be read on its own.
    const one = c.ok(await h.call('calendar_get_event', { calendar_id: 'primary', event_id: 'standup0506_20240520T073000Z' }));
    expect(one).toMatchObject({ recurringEventId: 'standup0506', start: { dateTime: '2024-05-20T09:30:00+02:00' } });

    c.apiError(await h.call('calendar_instances', { calendar_id: 'primary', event_id: 'nosuchevent' }), 404);
  });

  it('calendar_list_colors: calendar and event palettes keyed by color id', async () => {
    const colors = c.ok(await h.call('calendar_list_colors'));
    expect(c.sent()).toEqual(['GET /calendar/v3/colors']);
    expect(Object.keys(colors.calendar)).toHaveLength(24);
    expect(colors.event['11']).toEqual({ background: '#dc2127', foreground: '#1d1d1d' });
  });

  it('calendar_get_freebusy: busy ranges per calendar, unknown calendars reported, transparent events ignored', async () => {
    const result = c.ok(
      await h.call('calendar_get_freebusy', { time_min: '2024-05-14T00:00:00Z', time_max: '2024-05-16', calendar_ids: ['primary', FAMILY, HOLIDAYS, 'nobody@example.com'] }),
    );
    expect(c.sent()).toEqual(['POST /calendar/v3/freeBusy']);
    expect(c.body(0)).toEqual({
      timeMin: '2024-05-14T00:00:00Z',
      timeMax: '2024-05-16T00:00:00Z',
      items: [{ id: 'primary' }, { id: FAMILY }, { id: HOLIDAYS }, { id: 'nobody@example.com' }],
    });
    expect(result.calendars).toEqual({
      primary: {
        busy: [
          { start: '2024-05-14T14:00:00Z', end: '2024-05-14T15:00:00Z' },
          { start: '2024-05-15T12:00:00Z', end: '2024-05-15T13:00:00Z' },
        ],
      },
      [FAMILY]: { busy: [{ start: '2024-05-15T15:30:00Z', end: '2024-05-15T16:15:00Z' }] },
      [HOLIDAYS]: { busy: [] },
      'nobody@example.com': { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] },
    });
    c.invalid(await h.call('calendar_get_freebusy', { time_min: '2024-05-14T00:00:00Z', time_max: '2024-05-16T00:00:00Z' }));
  });
});

describe('J8 google_calendar: writing events', () => {
  it('calendar_create_event: a timed event in a time zone with attendees; the API answers with the zone offset', async () => {
    const event = c.ok(
      await h.call('calendar_create_event', {
        calendar_id: 'primary',
        summary: 'Design review',
        description: 'Walk through the new onboarding',
        location: 'Room 4',
        start: '2024-06-03T10:00:00',
        end: '2024-06-03T11:30:00',
        timezone: 'Europe/Paris',
        attendees: ['lea.martin@example.com', 'tom.baker@example.com'],
      }),
    );
    expect(c.sent()).toEqual(['POST /calendar/v3/calendars/primary/events']);
    expect(c.body(0)).toEqual({
      summary: 'Design review',
      description: 'Walk through the new onboarding',
      location: 'Room 4',
      start: { dateTime: '2024-06-03T10:00:00', timeZone: 'Europe/Paris' },
      end: { dateTime: '2024-06-03T11:30:00', timeZone: 'Europe/Paris' },
      attendees: [{ email: 'lea.martin@example.com' }, { email: 'tom.baker@example.com' }],
    });
    expect(event).toMatchObject({ summary: 'Design review', status: 'confirmed', organizer: USER, start: { dateTime: '2024-06-03T10:00:00+02:00', timeZone: 'Europe/Paris' } });
    expect(event.attendees).toEqual([
      { email: 'lea.martin@example.com', responseStatus: 'needsAction' },
      { email: 'tom.baker@example.com', responseStatus: 'needsAction' },
    ]);
    expect(cal.event('primary', event.id)?.location).toBe('Room 4');
  });

  it('calendar_create_event: UTC by default; all-day events use dates with the exclusive end day', async () => {
    const timed = c.ok(await h.call('calendar_create_event', { calendar_id: FAMILY, summary: 'Call grandma', start: '2024-06-04T18:00:00', end: '2024-06-04T18:30:00' }));
    expect(c.sent()).toEqual([`POST /calendar/v3/calendars/${encodeURIComponent(FAMILY)}/events`]);
    expect(c.body(0).start).toEqual({ dateTime: '2024-06-04T18:00:00', timeZone: 'UTC' });
    expect(timed.start).toEqual({ dateTime: '2024-06-04T18:00:00Z', timeZone: 'UTC' });

    h.api.clearRequests();
    const oneDay = c.ok(await h.call('calendar_create_event', { calendar_id: 'primary', summary: 'Conference', start: '2024-06-10', end: '2024-06-10', all_day: true }));
    expect(c.body(0)).toEqual({ summary: 'Conference', start: { date: '2024-06-10' }, end: { date: '2024-06-11' } });
    expect(oneDay).toMatchObject({ start: { date: '2024-06-10' }, end: { date: '2024-06-11' } });

    h.api.clearRequests();
    c.ok(await h.call('calendar_create_event', { calendar_id: 'primary', summary: 'Holiday', start: '2024-07-01T00:00:00', end: '2024-07-05', all_day: true }));
    expect(c.body(0)).toMatchObject({ start: { date: '2024-07-01' }, end: { date: '2024-07-05' } });

    c.invalid(await h.call('calendar_create_event', { calendar_id: 'primary', start: '2024-06-10', end: '2024-06-10' }));
    c.apiError(await h.call('calendar_create_event', { calendar_id: HOLIDAYS, summary: 'Mine', start: '2024-06-10T10:00:00', end: '2024-06-10T11:00:00' }), 403);
    c.apiError(await h.call('calendar_create_event', { calendar_id: 'primary', summary: 'Backwards', start: '2024-06-10T10:00:00', end: '2024-06-10T09:00:00' }), 400);
  });

  it('calendar_update_event: GET, merge the given fields, PUT the whole event; untouched fields are kept', async () => {
    const event = c.ok(
      await h.call('calendar_update_event', {
        calendar_id: 'primary',
        event_id: 'dentist0514',
        location: 'Dr Petit, 3 Rue Cler',
        start: '2024-05-14T17:00:00',
        end: '2024-05-14T18:00:00',
      }),
    );
    expect(c.sent()).toEqual(['GET /calendar/v3/calendars/primary/events/dentist0514', 'PUT /calendar/v3/calendars/primary/events/dentist0514']);
    const put = c.body(1);
    expect(put).toMatchObject({
      id: 'dentist0514',
      summary: 'Dentist appointment',
      location: 'Dr Petit, 3 Rue Cler',
      start: { dateTime: '2024-05-14T17:00:00', timeZone: 'Europe/Paris' },
      end: { dateTime: '2024-05-14T18:00:00', timeZone: 'Europe/Paris' },
    });
    expect(event).toMatchObject({ summary: 'Dentist appointment', location: 'Dr Petit, 3 Rue Cler', start: { dateTime: '2024-05-14T17:00:00+02:00' } });
    expect(cal.event('primary', 'dentist0514')?.sequence).toBe(1);

    h.api.clearRequests();
    const renamed = c.ok(await h.call('calendar_update_event', { calendar_id: 'primary', event_id: 'offsite0520', summary: 'Team offsite (Lyon)' }));
    expect(c.body(1)).toMatchObject({ summary: 'Team offsite (Lyon)', description: 'Two days in Lyon', start: { date: '2024-05-20' }, end: { date: '2024-05-22' } });
    expect(renamed.start).toEqual({ date: '2024-05-20' });

    h.api.clearRequests();
    c.apiError(await h.call('calendar_update_event', { calendar_id: 'primary', event_id: 'nosuchevent', summary: 'x' }), 404);
    expect(c.sent()).toEqual(['GET /calendar/v3/calendars/primary/events/nosuchevent']);
  });

  it('calendar_quick_add: the text goes in the query, no body; the event comes back parsed', async () => {
    const event = c.ok(await h.call('calendar_quick_add', { calendar_id: 'primary', text: 'Lunch with Marta 2024-06-05 at 1pm' }));
    expect(c.sent()).toEqual(['POST /calendar/v3/calendars/primary/events/quickAdd']);
    expect(c.request(0).query.get('text')).toBe('Lunch with Marta 2024-06-05 at 1pm');
    expect(c.request(0).body.length).toBe(0);
    expect(event).toMatchObject({ summary: 'Lunch with Marta', start: { dateTime: '2024-06-05T13:00:00+02:00' }, end: { dateTime: '2024-06-05T14:00:00+02:00' } });
    expect(cal.event('primary', event.id)?.summary).toBe('Lunch with Marta');
    c.invalid(await h.call('calendar_quick_add', { calendar_id: 'primary' }));
  });

  it('calendar_delete_event: DELETE answers 204; the event is cancelled and a second delete is 410', async () => {
    const created = c.ok(await h.call('calendar_quick_add', { calendar_id: 'primary', text: 'Temporary 2024-06-06 at 9am' }));
    h.api.clearRequests();
    expect(c.ok(await h.call('calendar_delete_event', { calendar_id: 'primary', event_id: created.id }))).toEqual({ success: true, deleted: created.id });
    expect(c.sent()).toEqual([`DELETE /calendar/v3/calendars/primary/events/${created.id}`]);
    expect(cal.event('primary', created.id)?.status).toBe('cancelled');
    c.apiError(await h.call('calendar_delete_event', { calendar_id: 'primary', event_id: created.id }), 410);
    c.apiError(await h.call('calendar_delete_event', { calendar_id: 'primary', event_id: 'nosuchevent' }), 404);
  });

  it('calendar_respond: GET the event and the account email, set my responseStatus, PUT; others are untouched', async () => {
    const answer = c.ok(await h.call('calendar_respond', { calendar_id: 'primary', event_id: 'qbr0515', response: 'accepted' }));
    expect(c.sent()).toEqual([
      'GET /calendar/v3/calendars/primary/events/qbr0515',
      'GET /calendar/v3/users/me/calendarList/primary',
      'PUT /calendar/v3/calendars/primary/events/qbr0515',
    ]);
    expect(c.body(2).attendees).toEqual([
      expect.objectContaining({ email: 'lea.martin@example.com', responseStatus: 'accepted', organizer: true }),
      expect.objectContaining({ email: 'tom.baker@example.com', responseStatus: 'tentative' }),
      expect.objectContaining({ email: USER, responseStatus: 'accepted' }),
    ]);
    expect(answer).toEqual({ eventId: 'qbr0515', summary: 'Quarterly business review', email: USER, responseStatus: 'accepted' });
    expect(cal.event('primary', 'qbr0515')?.attendees?.find((a) => a.email === USER)?.responseStatus).toBe('accepted');
  });

  it('calendar_respond: adds the user as an attendee when absent; a response outside the enum is refused', async () => {
    c.ok(await h.call('calendar_respond', { calendar_id: FAMILY, event_id: 'lesson0515', response: 'declined' }));
    expect(c.body(2).attendees).toEqual([{ email: USER, responseStatus: 'declined' }]);
    expect(cal.event(FAMILY, 'lesson0515')?.attendees).toEqual([{ email: USER, responseStatus: 'declined', self: true }]);
    c.invalid(await h.call('calendar_respond', { calendar_id: 'primary', event_id: 'qbr0515', response: 'maybe' }));
    c.apiError(await h.call('calendar_respond', { calendar_id: 'primary', event_id: 'nosuchevent', response: 'accepted' }), 404);
  });
});

describe('J8 google_calendar: managing calendars', () => {
  it('calendar_create_calendar then calendar_delete_calendar: the new calendar is listed, then gone', async () => {
    const created = c.ok(await h.call('calendar_create_calendar', { summary: 'Book club', description: 'Monthly reads', timezone: 'Europe/Lisbon' }));
    expect(c.sent()).toEqual(['POST /calendar/v3/calendars']);
    expect(c.body(0)).toEqual({ summary: 'Book club', description: 'Monthly reads', timeZone: 'Europe/Lisbon' });
    expect(created).toEqual({
      id: expect.stringMatching(/^[a-v0-9]+@group\.calendar\.google\.com$/),
      summary: 'Book club',
      description: 'Monthly reads',
      timeZone: 'Europe/Lisbon',
    });
    expect(c.ok(await h.call('calendar_list_calendars')).calendars.map((c: { id: string }) => c.id)).toContain(created.id);

    h.api.clearRequests();
    expect(c.ok(await h.call('calendar_delete_calendar', { calendar_id: created.id }))).toEqual({ success: true, deleted: created.id });
    expect(c.sent()).toEqual([`DELETE /calendar/v3/calendars/${encodeURIComponent(created.id)}`]);
    expect(cal.calendars.has(created.id)).toBe(false);
    c.invalid(await h.call('calendar_create_calendar', { description: 'no name' }));
  });

  it('calendar_delete_calendar: the primary calendar cannot be deleted, a reader cannot delete, unknown ids are 404', async () => {
    c.apiError(await h.call('calendar_delete_calendar', { calendar_id: 'primary' }), 400);
    c.apiError(await h.call('calendar_delete_calendar', { calendar_id: HOLIDAYS }), 403);
    c.apiError(await h.call('calendar_delete_calendar', { calendar_id: 'gone@group.calendar.google.com' }), 404);
    expect(cal.calendars.size).toBe(3);
  });
});

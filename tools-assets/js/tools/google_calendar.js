// Google Calendar tools: Calendar API v3 (https://developers.google.com/calendar/api/v3/reference).
var google_api = lib('google_api');

var BASE = 'https://www.googleapis.com/calendar/v3';
var API = 'Calendar';

function _cal(calendarId) {
  return BASE + '/calendars/' + encodeURIComponent(calendarId || 'primary');
}

function _eventUrl(calendarId, eventId) {
  return _cal(calendarId) + '/events/' + encodeURIComponent(eventId);
}

/**
 * The API wants RFC 3339 with an offset for timeMin/timeMax: a bare date means midnight UTC and a
 * time without an offset is taken as UTC, rather than letting the request fail.
 */
function _instant(value) {
  if (value === undefined || value === null || value === '') return undefined;
  var text = String(value).trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text + 'T00:00:00Z';
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) return text + 'Z';
  return text;
}

function _isDate(value) {
  return /^\d{4}-\d{2}-\d{2}$/.test(String(value));
}

/** The day after a YYYY-MM-DD date (all-day events end on the exclusive next day). */
function _nextDay(date) {
  var d = new Date(date + 'T00:00:00Z');
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function _event(e) {
  var out = {
    id: e.id,
    summary: e.summary,
    description: e.description,
    location: e.location,
    start: e.start,
    end: e.end,
    status: e.status,
    htmlLink: e.htmlLink,
    organizer: e.organizer && e.organizer.email,
    recurrence: e.recurrence,
    recurringEventId: e.recurringEventId,
    hangoutLink: e.hangoutLink,
  };
  if (e.attendees) {
    out.attendees = e.attendees.map(function (a) {
      return { email: a.email, displayName: a.displayName, responseStatus: a.responseStatus, self: a.self, organizer: a.organizer };
    });
  }
  return out;
}

function _events(data) {
  var out = { events: (data.items || []).map(_event) };
  if (data.timeZone) out.timeZone = data.timeZone;
  if (data.nextPageToken) out.more = 'More events match: narrow the time range or raise max_results.';
  return out;
}

async function calendarListCalendars() {
  var data = await google_api.request(API, 'GET', BASE + '/users/me/calendarList');
  return {
    calendars: (data.items || []).map(function (c) {
      return {
        id: c.id,
        summary: c.summaryOverride || c.summary,
        description: c.description,
        timeZone: c.timeZone,
        accessRole: c.accessRole,
        primary: c.primary === true,
        backgroundColor: c.backgroundColor,
      };
    }),
  };
}

async function calendarListEvents(params) {
  var data = await google_api.request(API, 'GET', _cal(params.calendar_id) + '/events', {
    query: {
      singleEvents: 'true',
      orderBy: 'startTime',
      timeMin: _instant(params.time_min),
      timeMax: _instant(params.time_max),
      maxResults: params.max_results,
      q: params.query,
    },
  });
  return _events(data);
}

async function calendarGetEvent(params) {
  return _event(await google_api.request(API, 'GET', _eventUrl(params.calendar_id, params.event_id)));
}

async function calendarCreateEvent(params) {
  var timeZone = params.timezone || 'UTC';
  var event = { summary: params.summary, description: params.description, location: params.location };
  if (params.all_day) {
    var startDate = String(params.start).slice(0, 10);
    var endDate = String(params.end).slice(0, 10);
    event.start = { date: startDate };
    event.end = { date: endDate > startDate ? endDate : _nextDay(startDate) };
  } else {
    event.start = { dateTime: params.start, timeZone: timeZone };
    event.end = { dateTime: params.end, timeZone: timeZone };
  }
  if (params.attendees && params.attendees.length > 0) {
    event.attendees = params.attendees.map(function (email) {
      return { email: email };
    });
  }
  return _event(await google_api.request(API, 'POST', _cal(params.calendar_id) + '/events', { body: event }));
}

/** A new start or end for an existing event: a bare date makes it all-day, else a timed one. */
function _when(value, timeZone) {
  return _isDate(value) ? { date: value } : { dateTime: value, timeZone: timeZone };
}

async function calendarUpdateEvent(params) {
  var url = _eventUrl(params.calendar_id, params.event_id);
  var event = await google_api.request(API, 'GET', url);
  ['summary', 'description', 'location'].forEach(function (field) {
    if (params[field] !== undefined) event[field] = params[field];
  });
  var timeZone = params.timezone || (event.start && event.start.timeZone) || 'UTC';
  if (params.start !== undefined) event.start = _when(params.start, timeZone);
  if (params.end !== undefined) event.end = _when(params.end, timeZone);
  if (params.timezone) {
    if (event.start && event.start.dateTime) event.start.timeZone = params.timezone;
    if (event.end && event.end.dateTime) event.end.timeZone = params.timezone;
  }
  if (event.start && event.end && event.start.date && event.end.date && event.end.date <= event.start.date) {
    event.end = { date: _nextDay(event.start.date) };
  }
  return _event(await google_api.request(API, 'PUT', url, { body: event }));
}

async function calendarDeleteEvent(params) {
  await google_api.request(API, 'DELETE', _eventUrl(params.calendar_id, params.event_id));
  return { success: true, deleted: params.event_id };
}

async function calendarSearchEvents(params) {
  var data = await google_api.request(API, 'GET', _cal(params.calendar_id) + '/events', {
    query: { q: params.query, singleEvents: 'true', orderBy: 'startTime', maxResults: params.max_results || 20 },
  });
  return _events(data);
}

async function calendarQuickAdd(params) {
  var event = await google_api.request(API, 'POST', _cal(params.calendar_id) + '/events/quickAdd', { query: { text: params.text } });
  return _event(event);
}

async function calendarGetFreebusy(params) {
  var data = await google_api.request(API, 'POST', BASE + '/freeBusy', {
    body: {
      timeMin: _instant(params.time_min),
      timeMax: _instant(params.time_max),
      items: params.calendar_ids.map(function (id) {
        return { id: id };
      }),
    },
  });
  return { timeMin: data.timeMin, timeMax: data.timeMax, calendars: data.calendars || {} };
}

async function calendarCreateCalendar(params) {
  var calendar = await google_api.request(API, 'POST', BASE + '/calendars', {
    body: { summary: params.summary, description: params.description, timeZone: params.timezone },
  });
  return { id: calendar.id, summary: calendar.summary, description: calendar.description, timeZone: calendar.timeZone };
}

async function calendarDeleteCalendar(params) {
  await google_api.request(API, 'DELETE', _cal(params.calendar_id));
  return { success: true, deleted: params.calendar_id };
}

async function calendarRespond(params) {
  var url = _eventUrl(params.calendar_id, params.event_id);
  var event = await google_api.request(API, 'GET', url);
  var me = await google_api.request(API, 'GET', BASE + '/users/me/calendarList/primary');
  var email = me.id;
  var attendees = event.attendees || [];
  var mine = null;
  for (var i = 0; i < attendees.length; i++) {
    if (attendees[i].self || String(attendees[i].email).toLowerCase() === String(email).toLowerCase()) mine = attendees[i];
  }
  if (!mine) {
    mine = { email: email };
    attendees.push(mine);
  }
  mine.responseStatus = params.response;
  event.attendees = attendees;
  var updated = await google_api.request(API, 'PUT', url, { body: event });
  return { eventId: updated.id, summary: updated.summary, email: mine.email, responseStatus: params.response };
}

async function calendarListColors() {
  var data = await google_api.request(API, 'GET', BASE + '/colors');
  return { calendar: data.calendar || {}, event: data.event || {} };
}

async function calendarInstances(params) {
  var data = await google_api.request(API, 'GET', _eventUrl(params.calendar_id, params.event_id) + '/instances', {
    query: { timeMin: _instant(params.time_min), timeMax: _instant(params.time_max), maxResults: params.max_results || 20 },
  });
  return _events(data);
}

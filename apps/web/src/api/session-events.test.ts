import type { SessionEvents, StoredEvent } from '@oneclaw/api-contract';
import { readAllSessionEvents } from './session-events';

const event = (revision: number): StoredEvent => ({
  type: 'MessageSent',
  data: { messageId: `m${revision}`, role: 'user', text: 'hi' },
  metadata: { eventId: `e${revision}`, occurredAt: '2026-01-01T00:00:00.000Z', correlationId: 'c', causationId: 'c', schemaVersion: 1 },
  streamId: 'session-s',
  revision,
  position: revision + 1,
});

/** Answers GET .../events?fromRevision=&limit= from `total` events, as the server pages them. */
function pagingApi(total: number, answer?: (from: number) => Partial<SessionEvents>) {
  const calls: string[] = [];
  return {
    calls,
    get<T>(path: string): Promise<T> {
      calls.push(path);
      const query = new URLSearchParams(path.split('?')[1]);
      const from = Number(query.get('fromRevision') ?? 0);
      const limit = Number(query.get('limit') ?? 500);
      const events = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, i) => event(from + i));
      const body = answer?.(from) ?? { sessionId: 's', events, nextRevision: from + limit < total ? from + limit : null };
      return Promise.resolve(body as T);
    },
  };
}

describe('reading every event of a session through the paged events route (F4)', () => {
  test('follows nextRevision, 1000 a page, to the end: every event once, in order', async () => {
    const api = pagingApi(2500);
    const events = await readAllSessionEvents(api, '/api/sessions/s');
    expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    expect(api.calls).toEqual(['/api/sessions/s/events?limit=1000', '/api/sessions/s/events?fromRevision=1000&limit=1000', '/api/sessions/s/events?fromRevision=2000&limit=1000']);
  });

  test('one request for a short session; an answer without nextRevision (a server from before paging) is the whole stream', async () => {
    expect(await readAllSessionEvents(pagingApi(3), '/api/sessions/s')).toHaveLength(3);
    const old = pagingApi(3, () => ({ sessionId: 's', events: [event(0), event(1)] }));
    expect(await readAllSessionEvents(old, '/api/sessions/s')).toHaveLength(2);
    expect(old.calls).toHaveLength(1);
  });

  test('from a revision: asks for that revision first and returns only the events from it on', async () => {
    const api = pagingApi(1500);
    const events = await readAllSessionEvents(api, '/api/sessions/s', { fromRevision: 1200 });
    expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 300 }, (_, i) => 1200 + i));
    expect(api.calls).toEqual(['/api/sessions/s/events?fromRevision=1200&limit=1000']);
  });

  test('stops rather than loop when a page does not move forward', async () => {
    const stuck = pagingApi(3, () => ({ sessionId: 's', events: [event(0)], nextRevision: 0 }));
    expect(await readAllSessionEvents(stuck, '/api/sessions/s')).toHaveLength(1);
  });
});

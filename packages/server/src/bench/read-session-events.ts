import type { RecordedEvent } from '@oneclaw/core';

/** One GET against a server under test: its status and parsed JSON body. */
export type BenchGet = (route: string) => Promise<{ readonly status: number; readonly body: unknown }>;

/**
 * Every event of a session, page by page through GET /api/sessions/:id/events (it answers at
 * most 1000 a time), for the benches' loss checks: a check that read one page would count the
 * events on the next pages as lost.
 */
export async function readSessionEvents(get: BenchGet, sessionId: string): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let from: number | null = 0; from !== null;) {
    const res = await get(`/api/sessions/${encodeURIComponent(sessionId)}/events?fromRevision=${from}&limit=1000`);
    if (res.status !== 200) throw new Error(`GetSessionEvents ${sessionId}: HTTP ${res.status}`);
    const page = res.body as { events: RecordedEvent[]; nextRevision: number | null };
    events.push(...page.events);
    from = page.nextRevision;
  }
  return events;
}

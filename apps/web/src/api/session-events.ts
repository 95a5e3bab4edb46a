import type { SESSION_EVENTS_PAGE, SessionEvents, StoredEvent } from '@oneclaw/api-contract';
import type { ApiClient, RequestOptions } from './client';

/**
 * The largest page the server answers. The bundle takes only types from the contract (its build
 * is CommonJS), so the number is written here and the type keeps it equal to the contract's.
 */
const PAGE_LIMIT: (typeof SESSION_EVENTS_PAGE)['maxLimit'] = 1000;

/**
 * Every event of a session from revision `fromRevision` (default: all of them), read page by page
 * from GET /api/sessions/:id/events (the server answers at most PAGE_LIMIT a time), following
 * `nextRevision` to the end. `base` is the session's path, `/api/sessions/<id>`.
 */
export async function readAllSessionEvents(api: Pick<ApiClient, 'get'>, base: string, options: RequestOptions & { readonly fromRevision?: number } = {}): Promise<StoredEvent[]> {
  const { fromRevision = 0, ...requestOptions } = options;
  const events: StoredEvent[] = [];
  let from: number | null = fromRevision;
  while (from !== null) {
    const query: string = from === 0 ? `?limit=${PAGE_LIMIT}` : `?fromRevision=${from}&limit=${PAGE_LIMIT}`;
    const page: Partial<SessionEvents> = await api.get<SessionEvents>(`${base}/events${query}`, requestOptions);
    events.push(...(page.events ?? []));
    const next = page.nextRevision;
    // A server from before paging sends no nextRevision (it sent everything); one that does not move on would loop.
    from = typeof next === 'number' && next > from ? next : null;
  }
  return events;
}

import { useEffect } from 'preact/hooks';
import { useApi } from '../api/api-context';
import { useResource } from '../api/use-resource';
import { routeHref } from '../routes';
import type { SessionSummary } from '@oneclaw/api-contract';
import { SessionListItem } from './session-list-item';
import { notifySessionsChanged, onSessionsChanged } from './sessions-changed';
import { useSettledQuery } from './use-settled-query';
import './chat.css';

/**
 * Every session, newest activity first (the server's order), with a search box and a link that
 * opens a new-session draft (#/new: nothing is created until its first message is sent). It
 * re-reads the list whenever the chat signals a change (sessions-changed.ts), when the current
 * session changes, and when typing in the search box pauses (the server searches titles and
 * message text).
 */
export function SessionList({ currentSessionId }: { currentSessionId?: string }) {
  const api = useApi();
  const search = useSettledQuery();
  const { query } = search;
  // The answer keeps the query it answers: while the next one loads, the list and what it says
  // ("No session matches ...") are still the last answer's.
  const sessions = useResource(
    (client, signal) =>
      client
        .get<{ sessions: SessionSummary[] }>(`/api/sessions${query ? `?q=${encodeURIComponent(query)}` : ''}`, { signal })
        .then((answer) => ({ query, sessions: answer.sessions })),
    [currentSessionId, query],
  );
  const { reload } = sessions;

  useEffect(() => onSessionsChanged(reload), [reload]);

  const list = sessions.data?.sessions ?? [];

  async function deleted(sessionId: string) {
    notifySessionsChanged();
    if (sessionId !== currentSessionId) return;
    // The open session is gone: go on with the newest other one (from the whole list, not only
    // the search's matches), or a new draft. Replace, so Back does not lead to the deleted one.
    const all = await api.get<{ sessions: SessionSummary[] }>('/api/sessions').then(
      (a) => a.sessions,
      () => list,
    );
    const next = all.find((s) => s.sessionId !== sessionId);
    window.location.replace(routeHref(next ? { name: 'chat', sessionId: next.sessionId } : { name: 'new' }));
  }

  return (
    <div class="session-list">
      <div class="session-list__head">
        <h2 id="session-list-title">Sessions</h2>
        <a class="button button--primary button--small" href={routeHref({ name: 'new' })}>
          New session
        </a>
      </div>
      <div class="session-list__search" role="search">
        <label for="session-search" class="visually-hidden">
          Search sessions
        </label>
        <input
          id="session-search"
          type="search"
          maxLength={200}
          placeholder="Search titles and messages"
          value={search.text}
          onInput={(e) => search.setText(e.currentTarget.value)}
        />
      </div>
      {sessions.error && (
        <p class="error" role="alert">
          Could not load the sessions: {sessions.error.detail}{' '}
          <button type="button" class="button button--small" onClick={reload}>
            Try again
          </button>
        </p>
      )}
      {sessions.data && list.length === 0 && (
        <p class="muted session-list__empty" role="status">
          {sessions.data.query ? `No session matches “${sessions.data.query}”.` : 'No sessions yet.'}
        </p>
      )}
      {!sessions.data && sessions.loading && <p class="muted session-list__empty">Loading…</p>}
      {list.length > 0 && (
        <ul class="session-list__items" aria-labelledby="session-list-title">
          {list.map((session) => (
            <SessionListItem
              key={session.sessionId}
              session={session}
              current={session.sessionId === currentSessionId}
              onRenamed={notifySessionsChanged}
              onDeleted={(id) => void deleted(id)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

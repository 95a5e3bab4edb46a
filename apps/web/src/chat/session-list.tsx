import { useEffect, useState } from 'preact/hooks';
import { useApi } from '../api/api-context';
import { useResource } from '../api/use-resource';
import { navigate, routeHref } from '../routes';
import type { SessionSummary, SessionView } from './api-types';
import { asActionError, type ActionError } from './chat-store';
import { notifySessionsChanged, onSessionsChanged } from './sessions-changed';
import './chat.css';

/**
 * Every session, newest activity first (the server's order), with a button that starts a new
 * one. It re-reads the list whenever the chat signals a change (sessions-changed.ts) and when
 * the current session changes, so titles and order follow the conversation.
 */
export function SessionList({ currentSessionId }: { currentSessionId?: string }) {
  const api = useApi();
  const sessions = useResource((client, signal) => client.get<{ sessions: SessionSummary[] }>('/api/sessions', { signal }), [currentSessionId]);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<ActionError | undefined>();
  const { reload } = sessions;

  useEffect(() => onSessionsChanged(reload), [reload]);

  async function createSession() {
    setCreating(true);
    setCreateError(undefined);
    try {
      const view = await api.post<SessionView>('/api/sessions', {});
      notifySessionsChanged();
      navigate({ name: 'chat', sessionId: view.sessionId });
    } catch (error) {
      setCreateError(asActionError(error));
    } finally {
      setCreating(false);
    }
  }

  const list = sessions.data?.sessions ?? [];
  return (
    <div class="session-list">
      <div class="session-list__head">
        <h2 id="session-list-title">Sessions</h2>
        <button type="button" class="button button--primary button--small" onClick={createSession} disabled={creating}>
          {creating ? 'Creating…' : 'New session'}
        </button>
      </div>
      {createError && (
        <p class="error" role="alert">
          Could not start a session: {createError.detail}
        </p>
      )}
      {sessions.error && !sessions.data && (
        <p class="error" role="alert">
          Could not load the sessions: {sessions.error.detail}{' '}
          <button type="button" class="button button--small" onClick={reload}>
            Try again
          </button>
        </p>
      )}
      {sessions.data && list.length === 0 && <p class="muted session-list__empty">No sessions yet.</p>}
      {!sessions.data && sessions.loading && <p class="muted session-list__empty">Loading…</p>}
      {list.length > 0 && (
        <ul class="session-list__items" aria-labelledby="session-list-title">
          {list.map((session) => {
            const current = session.sessionId === currentSessionId;
            return (
              <li key={session.sessionId}>
                <a class="session-list__link" href={routeHref({ name: 'chat', sessionId: session.sessionId })} aria-current={current ? 'page' : undefined}>
                  <span class={`session-list__title${session.title ? '' : ' muted'}`}>{session.title || 'New conversation'}</span>
                  <time class="session-list__time muted" dateTime={session.lastActivityAt}>
                    {formatActivity(session.lastActivityAt)}
                  </time>
                </a>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** Today's sessions by time, older ones by date, in the reader's locale. */
function formatActivity(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : date.toLocaleDateString([], { day: 'numeric', month: 'short', year: 'numeric' });
}

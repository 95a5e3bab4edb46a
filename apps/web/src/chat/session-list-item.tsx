import { useEffect, useRef, useState } from 'preact/hooks';
import { seg } from '../api/client';
import { useApi } from '../api/api-context';
import { PencilIcon, TrashIcon } from '../icons/icons';
import { ConfirmDialog } from '../layout/confirm-dialog';
import { routeHref } from '../routes';
import type { SessionSummary, SessionView } from '@oneclaw/api-contract';
import { asActionError, chatStoreFor, type ActionError } from './chat-store';

/** The longest title the server takes (SESSION_TITLE_MAX_CHARS in @oneclaw/core). */
const TITLE_MAX_CHARS = 120;

/**
 * One session in the list: its link, and Rename (inline, Save or Cancel; Escape cancels) and
 * Delete (asks first in a dialog, like Sign out). The buttons are always shown, not on hover
 * only, so they work by touch in the phone drawer. Deleting archives the session on the server
 * (`DELETE /api/sessions/:id`): the list drops it and its history stays in the audit.
 */
export function SessionListItem(props: { session: SessionSummary; current: boolean; onRenamed: () => void; onDeleted: (sessionId: string) => void }) {
  const { session, current } = props;
  const api = useApi();
  const [mode, setMode] = useState<'view' | 'renaming' | 'deleting'>('view');
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | undefined>();
  const label = session.title || 'New conversation';
  const base = `/api/sessions/${seg(session.sessionId)}`;

  function open(next: 'renaming' | 'deleting') {
    setError(undefined);
    setTitle(session.title);
    setMode(next);
  }

  async function act<T>(request: () => Promise<T>, done: (answer: T) => void) {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await request();
      setMode('view');
      done(answer);
    } catch (e) {
      setError(asActionError(e));
    } finally {
      setBusy(false);
    }
  }

  const rename = () =>
    act(
      () => api.patch<SessionView>(base, { title }),
      (view) => {
        props.onRenamed();
        // The chat header shows the title the server recorded at once: a re-read would wait
        // until a running turn is over (the store does not read while its turn streams).
        const store = chatStoreFor(api, session.sessionId);
        store.renamed(view.title);
        if (current) void store.refresh();
      },
    );

  if (mode === 'renaming') {
    const inputId = `rename-${session.sessionId}`;
    return (
      <li class="session-list__item">
        <form
          class="session-list__rename"
          onSubmit={(e) => {
            e.preventDefault();
            void rename();
          }}
        >
          <label for={inputId} class="visually-hidden">
            New title for {label}
          </label>
          <TitleInput id={inputId} value={title} disabled={busy} onInput={setTitle} onEscape={() => setMode('view')} />
          <span class="session-list__rename-actions">
            <button type="submit" class="button button--primary button--small" disabled={busy}>
              {busy ? 'Saving…' : 'Save'}
            </button>
            <button type="button" class="button button--small" onClick={() => setMode('view')}>
              Cancel
            </button>
          </span>
          {error && (
            <p class="error" role="alert">
              {error.detail}
            </p>
          )}
        </form>
      </li>
    );
  }

  return (
    <li class="session-list__item">
      <a class="session-list__link" href={routeHref({ name: 'chat', sessionId: session.sessionId })} aria-current={current ? 'page' : undefined}>
        <span class={`session-list__title${session.title ? '' : ' muted'}`}>{label}</span>
        <time class="session-list__time muted" dateTime={session.lastActivityAt}>
          {formatActivity(session.lastActivityAt)}
        </time>
      </a>
      <span class="session-list__actions">
        <button type="button" class="icon-button session-list__action" aria-label={`Rename ${label}`} title="Rename" onClick={() => open('renaming')}>
          <PencilIcon />
        </button>
        <button type="button" class="icon-button session-list__action" aria-label={`Delete ${label}`} aria-haspopup="dialog" title="Delete" onClick={() => open('deleting')}>
          <TrashIcon />
        </button>
      </span>
      {mode === 'deleting' && (
        <ConfirmDialog
          id="delete-session"
          title="Delete this session?"
          confirmLabel={busy ? 'Deleting…' : 'Delete'}
          busy={busy}
          onCancel={() => setMode('view')}
          onConfirm={() =>
            void act(
              () => api.delete(base),
              () => props.onDeleted(session.sessionId),
            )
          }
        >
          <p>“{label}” leaves the session list and takes no new messages. Its history stays in the audit.</p>
          {error && (
            <p class="error" role="alert">
              {error.detail}
            </p>
          )}
        </ConfirmDialog>
      )}
    </li>
  );
}

/** The rename box: focused and selected on opening; Escape cancels without closing the drawer. */
function TitleInput(props: { id: string; value: string; disabled: boolean; onInput: (value: string) => void; onEscape: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  return (
    <input
      ref={input}
      id={props.id}
      type="text"
      class="session-list__title-input"
      value={props.value}
      maxLength={TITLE_MAX_CHARS}
      required
      disabled={props.disabled}
      onInput={(e) => props.onInput(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        props.onEscape();
      }}
    />
  );
}

/** Today's sessions by time, older ones by date, in the reader's locale. */
function formatActivity(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : date.toLocaleDateString([], { day: 'numeric', month: 'short', year: 'numeric' });
}

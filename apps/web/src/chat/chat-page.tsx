import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useResource } from '../api/use-resource';
import { useApi } from '../api/api-context';
import { homeRedirect, routeHref } from '../routes';
import type { SessionSummary, ToolGroupView } from '@oneclaw/api-contract';
import { preloadMarkdownRenderer } from './assistant-markdown';
import { uploadAttachment } from './attachment-files';
import { Composer } from './composer';
import { GroupBar } from './group-bar';
import { NewSessionDraft } from './new-session-draft';
import { WaitingIndicator } from './reply-details';
import { sessionTitle, waitingNotice } from './transcript';
import { TranscriptView } from './transcript-view';
import { useChatSession } from './use-chat-session';
import './chat.css';

/**
 * `#/sessions/:id` is the chat. `#/` (no session) opens the session with the newest activity,
 * replacing the history entry so Back does not bounce; with no session at all it shows the
 * new-session draft. Continuing the last conversation is what the Android app should do on launch.
 */
export function ChatPage({ sessionId }: { sessionId?: string }) {
  return sessionId ? <ChatSession key={sessionId} sessionId={sessionId} /> : <ChatHome />;
}

/** How often a page re-reads a session whose turn runs in another window. */
const BUSY_POLL_MS = 2000;

function ChatHome() {
  const sessions = useResource((api, signal) => api.get<{ sessions: SessionSummary[] }>('/api/sessions', { signal }), []);
  const newest = sessions.data?.sessions[0];
  useEffect(() => {
    const target = homeRedirect(window.location.hash, newest?.sessionId);
    if (target) window.location.replace(target);
  }, [newest]);
  // No conversation yet: the draft is the first screen (nothing is created until a message is sent).
  if (sessions.data && !newest) return <NewSessionDraft />;

  return (
    <section class="page chat-home" aria-labelledby="chat-home-title">
      <h1 id="chat-home-title">Chat</h1>
      {sessions.error && (
        <p class="error" role="alert">
          Could not load the sessions: {sessions.error.detail}
        </p>
      )}
      {(sessions.loading || newest) && !sessions.error && <p class="muted">Opening your latest conversation…</p>}
    </section>
  );
}

/** Opens the new-session draft: a session is only created when its first message is sent. */
function NewSessionLink() {
  return (
    <a class="button button--primary" href={routeHref({ name: 'new' })}>
      New session
    </a>
  );
}

function ChatSession({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const [state, store] = useChatSession(sessionId);
  const groups = useResource((api, signal) => api.get<{ groups: ToolGroupView[] }>('/api/tool-groups', { signal }).then((answer) => answer.groups), []);
  const [confirmingClear, setConfirmingClear] = useState(false);
  const clearButton = useRef<HTMLButtonElement>(null);
  const messageBox = useRef<HTMLTextAreaElement>(null);
  // Keep (or Escape) in the Clear confirm step gives the focus back to the Clear button.
  const refocusClear = useRef(false);
  // Opened from the draft's first send: the message box takes the focus (asked once).
  const [autoFocus] = useState(() => store.takeComposerFocus());
  const scroller = useRef<HTMLDivElement>(null);
  // Follow new output only while the reader is at the bottom; scrolling up to read stops it.
  const followOutput = useRef(true);

  const waiting = waitingNotice(state);
  // The markdown renderer is a chunk of its own: fetch it alongside the conversation, so replies
  // rarely show as plain text first.
  useEffect(() => preloadMarkdownRenderer(), []);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && followOutput.current) element.scrollTop = element.scrollHeight;
  }, [state.items, waiting]);

  // A turn started elsewhere sends this page no events: re-read until it is over.
  useEffect(() => {
    if (!state.busyElsewhere || state.turn !== 'none') return;
    const timer = setInterval(() => void store.refresh(), BUSY_POLL_MS);
    return () => clearInterval(timer);
  }, [state.busyElsewhere, state.turn, store]);

  useEffect(() => {
    if (confirmingClear || !refocusClear.current) return;
    refocusClear.current = false;
    clearButton.current?.focus();
  }, [confirmingClear]);

  if (state.loadError?.code === 'session_not_found' || state.loadError?.code === 'invalid_session_id') {
    return (
      <section class="page" aria-labelledby="chat-missing-title">
        <h1 id="chat-missing-title">Session not found</h1>
        <p>{state.loadError.detail}</p>
        <NewSessionLink />
      </section>
    );
  }

  if (state.loadError?.code === 'session_archived') {
    return (
      <section class="page" aria-labelledby="chat-deleted-title">
        <h1 id="chat-deleted-title">Session deleted</h1>
        <p>This session was deleted: it takes no new messages. Its history stays in the audit.</p>
        <p class="chat-deleted__actions">
          <a class="button" href={routeHref({ name: 'audit', sessionId })}>
            Open its audit
          </a>
          <NewSessionLink />
        </p>
      </section>
    );
  }

  const running = state.turn !== 'none';
  const title = state.title ?? sessionTitle(state.items);

  return (
    <section class="chat" aria-labelledby="chat-title">
      <header class="chat__header">
        <div class="chat__titlebar">
          <h1 id="chat-title" class="chat__title" title={title}>
            {title}
          </h1>
          <div class="chat__actions">
            <a class="button button--quiet button--small chat__link" href={routeHref({ name: 'audit', sessionId })}>
              Audit
            </a>
            {!confirmingClear && (
              <button
                ref={clearButton}
                type="button"
                class="button button--small"
                disabled={running || state.busyElsewhere || !state.loaded}
                onClick={() => setConfirmingClear(true)}
              >
                Clear
              </button>
            )}
          </div>
        </div>
        {confirmingClear && (
          <ConfirmClear
            onConfirm={async () => {
              setConfirmingClear(false);
              // The confirm step goes away with the focus in it: the next thing to do is type.
              messageBox.current?.focus();
              await store.clear();
            }}
            onKeep={() => {
              refocusClear.current = true;
              setConfirmingClear(false);
            }}
          />
        )}
        <GroupBar
          sessionId={sessionId}
          loadedGroups={state.loadedGroups}
          groups={groups.data}
          onLoad={(name) => store.loadGroup(name)}
          onUnload={(name) => store.unloadGroup(name)}
          busy={running || state.busyElsewhere}
        />
        {state.actionError && (
          <div class="error chat__action-error" role="alert">
            <span>{state.actionError.detail}</span>
            <button type="button" class="button button--small button--quiet" onClick={() => store.dismissError()}>
              Dismiss
            </button>
          </div>
        )}
        {state.loadError && (
          <div class="error" role="alert">
            Could not load this conversation: {state.loadError.detail}{' '}
            <button type="button" class="button button--small" onClick={() => void store.refresh()}>
              Try again
            </button>
          </div>
        )}
        {state.busyElsewhere && !running && (
          <div class="notice chat__busy" role="status">
            <span>This session is answering a message sent from another window; this page follows when it is done.</span>
            <button type="button" class="button button--small button--danger" onClick={() => void store.cancel()}>
              Cancel it
            </button>
          </div>
        )}
      </header>

      <div
        ref={scroller}
        class="chat__scroll"
        role="region"
        aria-labelledby="transcript-title"
        aria-busy={running}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          followOutput.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        }}
      >
        <h2 id="transcript-title" class="visually-hidden">
          Conversation
        </h2>
        {!state.loaded && !state.loadError && <p class="muted chat__placeholder">Loading the conversation…</p>}
        {state.loaded && state.items.length === 0 && (
          <p class="muted chat__placeholder">No messages yet. Ask something; the assistant loads the tool groups it needs, or add one above.</p>
        )}
        <TranscriptView
          items={state.items}
          retryDisabled={running || state.busyElsewhere}
          onRetry={(key) => {
            followOutput.current = true;
            void store.retry(key);
          }}
          redo={{
            disabled: running || state.busyElsewhere,
            onRetry: (messageId) => {
              followOutput.current = true;
              void store.retryTurn(messageId);
            },
            onEdit: (messageId, text) => {
              followOutput.current = true;
              return store.editMessage(messageId, text);
            },
          }}
        />
        <WaitingIndicator notice={waiting} answeredBy={state.live.answeredBy} />
      </div>

      <p class="visually-hidden" role="status" aria-live="polite">
        {state.status}
      </p>

      <Composer
        turn={state.turn}
        disabled={!state.loaded}
        busyElsewhere={state.busyElsewhere}
        autoFocus={autoFocus}
        boxRef={messageBox}
        onSend={(text, attachments) => {
          followOutput.current = true;
          return store.send(text, undefined, attachments);
        }}
        upload={(file) => uploadAttachment(api, file)}
        onCancel={() => void store.cancel()}
      />
    </section>
  );
}

/** The confirm step of Clear: it empties the conversation and unloads every group. */
function ConfirmClear({ onConfirm, onKeep }: { onConfirm: () => void; onKeep: () => void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <div
      class="notice chat__confirm"
      role="group"
      aria-labelledby="confirm-clear-text"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onKeep();
      }}
    >
      <span id="confirm-clear-text">Clear this conversation and unload its tool groups? The history stays in the audit.</span>
      <span class="chat__confirm-actions">
        <button ref={confirm} type="button" class="button button--danger button--small" onClick={onConfirm}>
          Clear conversation
        </button>
        <button type="button" class="button button--small" onClick={onKeep}>
          Keep
        </button>
      </span>
    </div>
  );
}

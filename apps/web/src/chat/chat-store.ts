import { ApiError } from '../api/api-error';
import { seg, type ApiClient } from '../api/client';
import { newIdempotencyKey } from '../api/idempotency-key';
import { readAllSessionEvents } from '../api/session-events';
import type { AttachmentRef, SessionView, StoredEvent } from '@oneclaw/api-contract';
import { notifySessionsChanged } from './sessions-changed';
import { holdUnload } from './unload-guard';
import { chatReducer, initialChatState, type ChatAction, type ChatState } from './transcript';

/** The part of the API client a session store uses (a fake in unit tests). */
export type ChatApi = Pick<ApiClient, 'get' | 'post' | 'delete' | 'stream'>;

/** A problem with an action around the conversation (load, unload, clear, cancel), shown near its control. */
export interface ActionError {
  readonly code: string;
  readonly detail: string;
}

export type SendOutcome = 'sent' | 'refused' | 'unsent';

export interface ChatSnapshot extends ChatState {
  /** The name the user gave the session (from the stored view), shown instead of the first message. */
  readonly title?: string;
  readonly loadError?: ActionError;
  readonly actionError?: ActionError;
}

/**
 * How long the page waits, after the server accepted a cancel, for the turn's own stream to end
 * with its recorded stop. Past it the page closes the connection, which cancels the turn too.
 */
export const CANCEL_GRACE_MS = 5000;

/**
 * One session's chat, outside the component tree: the stored session, the running turn's stream
 * and the actions on it. Kept per session for the page's life, so a reply keeps streaming
 * while the user looks at another session or the groups browser, and is there on return.
 */
export class ChatSessionStore {
  private state: ChatSnapshot = initialChatState;
  private readonly listeners = new Set<(state: ChatSnapshot) => void>();
  private stream: AbortController | undefined;
  /** Settles when the current stream has ended, however it ended. */
  private streamEnded: Promise<void> = Promise.resolve();
  /** Bumped by every change this page makes: a stored read that started before one is stale. */
  private epoch = 0;
  private readonly base: string;
  /**
   * The session's events read so far, in revision order. A stream only grows (a clear, a retry or
   * a compaction is an event too), so a re-read after a turn asks only for what came after them:
   * the cost of a turn's re-read stays the size of the turn, not of the session.
   */
  private events: StoredEvent[] = [];
  /** The page opened from the new-session draft's send: its message box takes the focus once. */
  private composerFocusWanted = false;

  constructor(
    private readonly api: ChatApi,
    readonly sessionId: string,
    private readonly options: { readonly cancelGraceMs?: number } = {},
  ) {
    this.base = `/api/sessions/${seg(sessionId)}`;
  }

  getState(): ChatSnapshot {
    return this.state;
  }

  subscribe(listener: (state: ChatSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  get streaming(): boolean {
    return this.stream !== undefined;
  }

  /**
   * Reads the stored session: the view for groups and turn state, the events for the transcript
   * (stop notices and which call loaded which group are only there). Skipped while this page's
   * own turn streams: the stream is newer than any read.
   */
  async refresh(): Promise<void> {
    if (this.stream) return;
    const epoch = this.epoch;
    try {
      const [view, events] = await Promise.all([
        this.api.get<SessionView>(this.base),
        // The transcript can still be built from the view's messages if the events fail.
        readAllSessionEvents(this.api, this.base, { fromRevision: nextRevisionAfter(this.events) }).then(
          (fresh): StoredEvent[] | undefined => (this.events = appendNewEvents(this.events, fresh)),
          () => undefined,
        ),
      ]);
      if (epoch !== this.epoch || this.stream) return;
      // A "not done: a reply runs elsewhere" notice is over once that turn is.
      const busyRefusal = this.state.actionError?.code === TURN_IN_PROGRESS && !view.turnInProgress;
      this.set({ loadError: undefined, title: view.title ?? undefined, ...(busyRefusal ? { actionError: undefined } : {}) });
      this.dispatch({ type: 'stored', view, ...(events ? { events } : {}) });
    } catch (error) {
      if (epoch !== this.epoch) return;
      this.set({ loadError: asActionError(error) });
    }
  }

  /**
   * Sends a message and streams its turn. Resolves `refused` when the server turned it down
   * before recording it (the caller gives the text back to the composer), `unsent` when the
   * server could not be reached (the message stays in the transcript, marked not sent, with
   * Retry), `sent` otherwise. Every message carries an Idempotency-Key, so that a retry of one
   * that did reach the server after all is not recorded twice.
   */
  async send(text: string, retry?: { readonly of: string; readonly idempotencyKey: string }, attachments: readonly AttachmentRef[] = []): Promise<SendOutcome> {
    if (this.stream || this.state.turn !== 'none') return 'refused';
    const idempotencyKey = retry?.idempotencyKey ?? newIdempotencyKey();
    const start: ChatAction = { type: 'send', text, idempotencyKey, ...(retry ? { retryOf: retry.of } : {}), ...(attachments.length > 0 ? { attachments } : {}) };
    // Files go by hash (uploaded before); the server takes their type and size from its store.
    const body = { text, ...(attachments.length > 0 ? { attachments: attachments.map((a) => ({ hash: a.hash, name: a.name })) } : {}) };
    return this.runTurn(start, `${this.base}/messages`, body, idempotencyKey, retry !== undefined);
  }

  /**
   * Runs the last turn again for the last user message `messageId` (after an error, or for
   * another answer): the server supersedes the replies after it (TurnRetried). Streams like send.
   */
  async retryTurn(messageId: string): Promise<SendOutcome> {
    if (this.stream || this.state.turn !== 'none') return 'refused';
    return this.runTurn({ type: 'redo', kind: 'retry', messageId }, `${this.base}/retry`, { messageId }, newIdempotencyKey(), false);
  }

  /**
   * Replaces the last user message with `text` and runs its turn (UserMessageEdited). `refused`
   * (a stale message, or no connection) leaves the conversation as the server has it.
   */
  async editMessage(messageId: string, text: string): Promise<SendOutcome> {
    if (this.stream || this.state.turn !== 'none') return 'refused';
    return this.runTurn({ type: 'redo', kind: 'edit', messageId, text }, `${this.base}/messages/${seg(messageId)}/edit`, { text }, newIdempotencyKey(), false);
  }

  /**
   * Streams a turn: `start` shows it, the SSE updates fold in, and the stored session is read
   * again at the end. `resent`: the request repeats one whose answer never came (its key).
   */
  private async runTurn(start: ChatAction, route: string, body: unknown, idempotencyKey: string, resent: boolean): Promise<SendOutcome> {
    const controller = new AbortController();
    this.stream = controller;
    let ended = () => {};
    this.streamEnded = new Promise<void>((resolve) => (ended = resolve));
    // Reloading or closing the page now would cancel the turn: the browser asks first.
    const release = holdUnload();
    this.epoch++;
    this.set({ actionError: undefined });
    this.dispatch(start);
    let received = false;
    let outcome: SendOutcome = 'sent';
    try {
      await this.api.stream(
        route,
        body,
        (event) => {
          received = true;
          this.dispatch({ type: 'sse', event });
          // The user message is recorded: the session's title and place in the list change now.
          if (event.event === 'turn_started' || event.event === 'session_cleared') notifySessionsChanged();
        },
        { signal: controller.signal, headers: { 'idempotency-key': idempotencyKey } },
      );
      this.dispatch({ type: 'stream-ended', aborted: false });
    } catch (error) {
      if (controller.signal.aborted) {
        this.dispatch({ type: 'stream-ended', aborted: true });
      } else if (resent && error instanceof ApiError && error.code === 'duplicate_request') {
        // The first attempt did reach the server and is recorded: nothing failed. The re-read
        // below shows the stored message (once) and whatever its turn produced.
        this.dispatch({ type: 'stream-ended', aborted: false });
      } else {
        const problem = asActionError(error);
        // A retry or an edit that never started is refused whatever the reason: nothing of it is kept here.
        const refused = !received && ((error instanceof ApiError && error.status >= 400) || start.type === 'redo');
        // No answer at all (status 0): the server is down or unreachable.
        // A retry or an edit is not kept as "not sent": Retry would send it as a new message.
        const unreachable = !received && error instanceof ApiError && error.status === 0 && start.type === 'send';
        if (refused) outcome = 'refused';
        if (unreachable) outcome = 'unsent';
        // Another window's turn runs (this page had not heard of it yet): no error card, the
        // page's "answering in another window" notice says it, and goes once that turn is over.
        const busy = refused && problem.code === TURN_IN_PROGRESS;
        this.dispatch({ type: 'stream-failed', refused, unreachable, ...(busy ? { busyElsewhere: start.type === 'send' ? 'send' : 'redo' } : {}), ...problem });
      }
    } finally {
      this.stream = undefined;
      this.epoch++;
      release();
      ended();
    }
    // An unreachable server would fail these reads too, and each failure would show its own
    // notice beside the not-sent message: one notice says it. Retry reads again.
    if (outcome === 'unsent') return outcome;
    notifySessionsChanged();
    // The stream carried previews; the stored session has full results and the server's ids.
    await this.refresh();
    return outcome;
  }

  /** Sends a not-sent message again, with the Idempotency-Key of its first attempt. */
  async retry(key: string): Promise<SendOutcome> {
    const item = this.state.items.find((candidate) => candidate.key === key && candidate.kind === 'user' && candidate.unsent !== undefined);
    if (!item || item.kind !== 'user') return 'refused';
    return this.send(item.text, { of: key, idempotencyKey: item.idempotencyKey ?? newIdempotencyKey() }, item.attachments ?? []);
  }

  /**
   * Cancels the running turn. The server stops it and records the stop, which then arrives on
   * the stream as `turn_finished{cancelled}` before the stream ends. The connection is closed
   * by the page as well when the server had no turn to cancel (it ran elsewhere or just ended),
   * when the cancel request fails, or when the stream does not end within a grace period:
   * closing it cancels the turn on the server in any case.
   */
  async cancel(): Promise<void> {
    const controller = this.stream;
    if (!controller) {
      // A turn started elsewhere (another tab): only the server can stop it.
      try {
        await this.api.post<{ cancelled: boolean }>(`${this.base}/cancel`);
      } catch (error) {
        this.set({ actionError: asActionError(error) });
      }
      await this.refresh();
      return;
    }
    this.dispatch({ type: 'cancel-requested' });
    try {
      const answer = await this.api.post<{ cancelled: boolean }>(`${this.base}/cancel`);
      if (!answer?.cancelled) controller.abort();
    } catch {
      controller.abort();
    }
    if (!controller.signal.aborted && this.stream === controller) {
      const timer = setTimeout(() => controller.abort(), this.options.cancelGraceMs ?? CANCEL_GRACE_MS);
      void this.streamEnded.then(() => clearTimeout(timer));
    }
  }

  /** Clears the conversation and its loaded groups (the stream keeps the history). */
  async clear(): Promise<boolean> {
    return this.change(() => this.api.post<SessionView>(`${this.base}/clear`), true);
  }

  async loadGroup(groupName: string): Promise<boolean> {
    return this.change(() => this.api.post<SessionView>(`${this.base}/tool-groups`, { groupName }), false);
  }

  async unloadGroup(groupName: string): Promise<boolean> {
    return this.change(() => this.api.delete<SessionView>(`${this.base}/tool-groups/${seg(groupName)}`), false);
  }

  /**
   * A session the draft has just created (`view` is the create's answer: no message, no event
   * yet) is known without a read: its page is not "loading" during the first turn, and its
   * message box can be typed in while the first reply streams.
   */
  startedEmpty(view: SessionView): void {
    if (this.state.loaded || this.stream) return;
    this.dispatch({ type: 'stored', view, events: [] });
  }

  /** Asks the session's page to focus its message box when it opens (the draft sent the first message). */
  focusComposerOnOpen(): void {
    this.composerFocusWanted = true;
  }

  /** Whether the page opening now should focus its message box; asked once. */
  takeComposerFocus(): boolean {
    const wanted = this.composerFocusWanted;
    this.composerFocusWanted = false;
    return wanted;
  }

  /**
   * The session was renamed (the PATCH's answer): the header shows the new title at once, even
   * while a turn streams (a re-read waits until it is over). A read that started before is stale.
   */
  renamed(title: string | null): void {
    this.epoch++;
    this.set({ title: title ?? undefined });
  }

  dismissError(): void {
    this.set({ actionError: undefined });
  }

  private async change(request: () => Promise<SessionView>, listChanged: boolean): Promise<boolean> {
    this.epoch++;
    this.set({ actionError: undefined });
    try {
      const view = await request();
      this.dispatch({ type: 'view', view });
      if (listChanged) notifySessionsChanged();
      // A read of the session this change overtook was dropped (refresh): when none had been
      // taken in yet (a group loaded right after the page opened or a turn ended), read it now,
      // or the page would stay "loading", its message box disabled, until reloaded.
      if (!this.state.loaded) await this.refresh();
      return true;
    } catch (error) {
      const problem = asActionError(error);
      // Refused because a turn runs: say so in words, not the API's. Another window's: the
      // re-read below shows that window's notice, and the next read after its turn drops this.
      // This window's own (a group changed while its reply streams): it is there to wait for.
      const busy = this.state.turn !== 'none' ? BUSY_HERE_REFUSAL : BUSY_ELSEWHERE_REFUSAL;
      this.set({ actionError: problem.code === TURN_IN_PROGRESS ? { code: TURN_IN_PROGRESS, detail: busy } : problem });
      // Whatever happened, show what the server now holds.
      await this.refresh();
      return false;
    }
  }

  private dispatch(action: ChatAction): void {
    const next = chatReducer(this.state, action);
    if (next !== this.state) this.set(next);
  }

  private set(patch: Partial<ChatSnapshot>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener(this.state);
  }
}

/** The server's refusal of a change while a turn runs (docs/api.md). */
const TURN_IN_PROGRESS = 'turn_in_progress';

/** What a refused clear, load or unload says when another window's turn runs. */
/** The same refusal while this window's own reply runs (the server keeps the tools a turn started with). */
export const BUSY_HERE_REFUSAL = 'Not done: the session is answering your message. Try again when the reply is over, or cancel it.';
export const BUSY_ELSEWHERE_REFUSAL = 'Not done: the session is answering a message sent from another window. Try again when that reply is over, or cancel it.';

export function asActionError(error: unknown): ActionError {
  if (error instanceof ApiError) return { code: error.code, detail: error.detail };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'network_error', detail: `The connection to the server broke (${message}). Check that it is running, then reload.` };
}

const stores = new WeakMap<object, Map<string, ChatSessionStore>>();

/** The store of one session for this API client (a new sign-in gets fresh stores). */
export function chatStoreFor(api: ChatApi, sessionId: string): ChatSessionStore {
  let byId = stores.get(api);
  if (!byId) {
    byId = new Map();
    stores.set(api, byId);
  }
  let store = byId.get(sessionId);
  if (!store) {
    store = new ChatSessionStore(api, sessionId);
    byId.set(sessionId, store);
  }
  return store;
}

/** The revision to read from after `events` (0 when none was read yet). */
function nextRevisionAfter(events: readonly StoredEvent[]): number {
  const last = events.at(-1);
  return last ? last.revision + 1 : 0;
}

/**
 * `known` followed by the events of `fresh` after its last revision. Two reads can overlap (the
 * page opened while a turn ended): an event the other read already added is not added twice.
 */
function appendNewEvents(known: StoredEvent[], fresh: readonly StoredEvent[]): StoredEvent[] {
  const after = nextRevisionAfter(known);
  const added = fresh.filter((event) => event.revision >= after);
  return added.length === 0 ? known : [...known, ...added];
}

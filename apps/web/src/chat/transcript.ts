import type { StreamEvent } from '../api/client';
import type { MessageData, SessionView, StoredEvent, TurnStopReason } from './api-types';

/**
 * What the chat shows, as one pure fold: the stored session (its event stream, read on load
 * and after every turn) and the Server-Sent Events of a running turn both reduce into the same
 * items, so a tool card looks the same while it streams and after a reload.
 */

export type ToolCardStatus = 'running' | 'success' | 'error' | 'no_result';

export interface UserItem {
  readonly kind: 'user';
  readonly key: string;
  readonly text: string;
  /** Sent but not yet acknowledged by the server (no `turn_started` yet). */
  readonly pending?: boolean;
  /** The key the message was sent with; a retry sends it again so the server records it once. */
  readonly idempotencyKey?: string;
  /** The send never reached the server (it was down or unreachable): why, in words. Retry sends it again. */
  readonly unsent?: string;
  /** The server's id, once the message is read from the stored session: retry and edit name it. */
  readonly messageId?: string;
}

export interface AssistantItem {
  readonly kind: 'assistant';
  readonly key: string;
  readonly text: string;
  /** Still receiving `text_delta`s. */
  readonly streaming: boolean;
}

export interface ToolItem {
  readonly kind: 'tool';
  /** `<assistant messageId>:<index of the call>`: the same while streaming and when stored, so an open card stays open. */
  readonly key: string;
  readonly callId: string;
  readonly toolName: string;
  readonly arguments: unknown;
  readonly status: ToolCardStatus;
  readonly durationMs?: number;
  readonly errorType?: string;
  /** The result (success) or the error message; while streaming only the server's preview. */
  readonly output?: string;
  /** `output` is the start of the result only (the full one is read once the turn ends). */
  readonly outputIsPreview?: boolean;
  /** The group this `load_tool_group` call loaded. */
  readonly loadedGroup?: string;
}

export interface TurnStopItem {
  readonly kind: 'turn-stop';
  readonly key: string;
  readonly reason: TurnStopReason;
  readonly detail: string;
}

/** A failure that is not in the session's stream (a refused send, a broken stream). */
export interface ErrorItem {
  readonly kind: 'error';
  readonly key: string;
  readonly code: string;
  readonly detail: string;
}

/** The conversation was compacted: the messages above stay here, the model now reads a summary of them. */
export interface CompactedItem {
  readonly kind: 'compacted';
  readonly key: string;
  readonly detail: string;
}

export type TranscriptItem = UserItem | AssistantItem | ToolItem | TurnStopItem | ErrorItem | CompactedItem;

export type TurnPhase = 'none' | 'running' | 'cancelling';

export interface ChatState {
  /** False until the stored session has been read once. */
  readonly loaded: boolean;
  readonly items: readonly TranscriptItem[];
  readonly loadedGroups: readonly string[];
  /** This page's own turn. */
  readonly turn: TurnPhase;
  /** The server says a turn runs, but not one this page started (another tab, or before a reload). */
  readonly busyElsewhere: boolean;
  /** Text for the polite live region: what just happened, in words. */
  readonly status: string;
  /** Keys of the running turn's items, to name the streaming ones. */
  readonly live: LiveTurn;
}

interface LiveTurn {
  readonly round: number;
  /** The last `assistant_message` of the turn: tool cards are keyed after it. */
  readonly assistantKey: string;
  readonly toolIndex: number;
  /** A `turn_finished` arrived (so an aborted stream needs no local stop notice). */
  readonly finished: boolean;
  readonly counter: number;
}

export const initialChatState: ChatState = {
  loaded: false,
  items: [],
  loadedGroups: [],
  turn: 'none',
  busyElsewhere: false,
  status: '',
  live: { round: 0, assistantKey: 'live', toolIndex: 0, finished: false, counter: 0 },
};

export type ChatAction =
  /** The stored session: the view (groups, turn state) and its events (transcript); without events the view's messages are used. */
  | { readonly type: 'stored'; readonly view: SessionView; readonly events?: readonly StoredEvent[] }
  /** `retryOf`: the key of the not-sent message this send replaces. */
  | { readonly type: 'send'; readonly text: string; readonly idempotencyKey?: string; readonly retryOf?: string }
  | { readonly type: 'sse'; readonly event: StreamEvent }
  /** The stream closed; `aborted` when this page closed it. */
  | { readonly type: 'stream-ended'; readonly aborted: boolean }
  /**
   * The send failed; `refused` when nothing was recorded (an answer before the stream opened),
   * `unreachable` when no answer came at all (the message stays, marked not sent).
   */
  | { readonly type: 'stream-failed'; readonly refused: boolean; readonly unreachable?: boolean; readonly code: string; readonly detail: string }
  | { readonly type: 'cancel-requested' }
  /** A retry of the last turn (the user message stays) or an edit of the last user message (replaced by `text`). */
  | { readonly type: 'redo'; readonly kind: 'retry'; readonly messageId: string }
  | { readonly type: 'redo'; readonly kind: 'edit'; readonly messageId: string; readonly text: string }
  /** After clear, load or unload by the user. */
  | { readonly type: 'view'; readonly view: SessionView };

export const LOAD_TOOL_GROUP = 'load_tool_group';
export const CLEAR_TEXT = '/clear';

/** The server treats a message that is exactly `/clear` (blanks around it aside) as ClearSession. */
export function isClearCommand(text: string): boolean {
  return text.trim() === CLEAR_TEXT;
}

/** `/compact` is not a message either: the server records a compaction, not a user message. */
export function isCompactCommand(text: string): boolean {
  return text.trim() === '/compact';
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'stored': {
      // A read that started before this page's own turn would roll the turn back: keep the live items.
      if (state.turn !== 'none') return state;
      const items = action.events
        ? transcriptFromEvents(action.events, action.view.turnInProgress)
        : transcriptFromMessages(action.view.messages, action.view.turnInProgress, action.view.supersededMessageIds);
      // Errors and messages that never reached the server are not in the stream; keep them
      // (errors until the next send, unsent messages until they are retried) so nothing is lost.
      const local = state.items.filter((item) => item.kind === 'error' || (item.kind === 'user' && item.unsent !== undefined));
      return { ...state, loaded: true, items: [...items, ...local], loadedGroups: action.view.loadedGroups, busyElsewhere: action.view.turnInProgress };
    }
    case 'view':
      return { ...state, loadedGroups: action.view.loadedGroups, ...(action.view.messages.length === 0 && state.turn === 'none' ? { items: [] } : {}) };
    case 'send': {
      const counter = state.live.counter + 1;
      const live: LiveTurn = { round: 0, assistantKey: `live-${counter}`, toolIndex: 0, finished: false, counter };
      const kept = state.items.filter((item) => item.kind !== 'error' && item.key !== action.retryOf);
      const command = isClearCommand(action.text) || isCompactCommand(action.text);
      const sent: UserItem = { kind: 'user', key: `local-${counter}`, text: action.text, pending: true, ...(action.idempotencyKey ? { idempotencyKey: action.idempotencyKey } : {}) };
      const items = command ? kept : [...kept, sent];
      const status = isClearCommand(action.text) ? 'Clearing the conversation…' : command ? 'Compacting the conversation…' : 'Message sent. Waiting for the reply…';
      return { ...state, items, turn: 'running', busyElsewhere: false, live, status };
    }
    case 'redo': {
      // What the retry or edit supersedes leaves the screen at once, as the stored session will show it.
      const counter = state.live.counter + 1;
      const live: LiveTurn = { round: 0, assistantKey: `live-${counter}`, toolIndex: 0, finished: false, counter };
      const kept = supersede(state.items.filter((item) => item.kind !== 'error'), action.messageId, action.kind);
      const items: TranscriptItem[] = action.kind === 'edit' ? [...kept, { kind: 'user', key: `local-${counter}`, text: action.text, pending: true }] : kept;
      const status = action.kind === 'edit' ? 'Edited message sent. Waiting for the reply…' : 'Retrying. Waiting for a new reply…';
      return { ...state, items, turn: 'running', busyElsewhere: false, live, status };
    }
    case 'sse':
      return applyStreamEvent(state, action.event);
    case 'cancel-requested':
      return state.turn === 'running' ? { ...state, turn: 'cancelling', status: 'Cancelling the reply…' } : state;
    case 'stream-ended': {
      if (state.turn === 'none') return state;
      const items = settleLiveItems(state.items);
      if (action.aborted && !state.live.finished) {
        const stop: TurnStopItem = { kind: 'turn-stop', key: `stop-${state.live.counter}`, reason: 'cancelled', detail: 'You cancelled the reply.' };
        return { ...state, turn: 'none', items: [...items, stop], status: 'Reply cancelled.' };
      }
      return { ...state, turn: 'none', items };
    }
    case 'stream-failed': {
      // The message stays where it was typed, marked not sent with the reason: that one notice
      // is the error, so no separate error card repeats it.
      if (action.unreachable && state.items.some((item) => item.kind === 'user' && item.pending)) {
        const items = state.items.map((item) => (item.kind === 'user' && item.pending ? { ...item, pending: false, unsent: action.detail } : item));
        return { ...state, turn: 'none', items, status: `Not sent: ${action.detail}` };
      }
      const items = action.refused ? state.items.filter((item) => !(item.kind === 'user' && item.pending)) : settleLiveItems(state.items);
      const error: ErrorItem = { kind: 'error', key: `error-${state.live.counter}`, code: action.code, detail: action.detail };
      return { ...state, turn: 'none', items: [...items, error], status: `Error: ${action.detail}` };
    }
  }
}

function applyStreamEvent(state: ChatState, { event, data }: StreamEvent): ChatState {
  const d = (data ?? {}) as Record<string, any>;
  const { live } = state;
  switch (event) {
    case 'turn_started':
      return { ...state, items: state.items.map((item) => (item.kind === 'user' && item.pending ? { ...item, pending: false } : item)) };
    case 'model_requested':
      return { ...state, live: { ...live, round: Number(d.round) || live.round + 1 }, status: state.turn === 'cancelling' ? state.status : 'The assistant is thinking…' };
    case 'text_delta': {
      const text = String(d.text ?? '');
      const last = state.items[state.items.length - 1];
      if (last?.kind === 'assistant' && last.streaming) return { ...state, items: [...state.items.slice(0, -1), { ...last, text: last.text + text }] };
      const draft: AssistantItem = { kind: 'assistant', key: `draft-${live.counter}-${live.round}`, text, streaming: true };
      return { ...state, items: [...state.items, draft], status: 'The assistant is replying…' };
    }
    case 'assistant_message': {
      const key = String(d.messageId ?? `${live.assistantKey}-${live.round}`);
      const text = String(d.text ?? '');
      const withoutDraft = state.items.filter((item) => !(item.kind === 'assistant' && item.streaming));
      const items = text ? [...withoutDraft, { kind: 'assistant' as const, key, text, streaming: false }] : withoutDraft;
      const calls = Number(d.toolCalls) || 0;
      const status = calls > 0 ? `Running ${calls} tool call${calls === 1 ? '' : 's'}…` : text ? `The assistant replied: ${text}` : state.status;
      return { ...state, items, live: { ...live, assistantKey: key, toolIndex: 0 }, status };
    }
    case 'tool_call_started': {
      const card: ToolItem = {
        kind: 'tool',
        key: `${live.assistantKey}:${live.toolIndex}`,
        callId: String(d.callId ?? ''),
        toolName: String(d.toolName ?? ''),
        arguments: d.arguments ?? {},
        status: 'running',
      };
      return { ...state, items: [...state.items, card], live: { ...live, toolIndex: live.toolIndex + 1 } };
    }
    case 'tool_call_finished': {
      const status = d.status === 'error' ? 'error' : 'success';
      const items = updateLast(state.items, (item) => item.kind === 'tool' && item.callId === d.callId && item.status === 'running', (item) => ({
        ...(item as ToolItem),
        status,
        durationMs: typeof d.durationMs === 'number' ? d.durationMs : undefined,
        ...(status === 'error' ? { errorType: String(d.errorType ?? 'error') } : {}),
        output: String(d.preview ?? ''),
        outputIsPreview: true,
      }));
      return { ...state, items };
    }
    case 'group_loaded': {
      const groupName = String(d.groupName ?? '');
      if (!groupName) return state;
      const items = updateLast(
        state.items,
        (item) => item.kind === 'tool' && item.toolName === LOAD_TOOL_GROUP && !item.loadedGroup && requestedGroup(item.arguments) === groupName,
        (item) => ({ ...(item as ToolItem), loadedGroup: groupName }),
      );
      const loadedGroups = state.loadedGroups.includes(groupName) ? state.loadedGroups : [...state.loadedGroups, groupName];
      return { ...state, items, loadedGroups, status: `Tool group ${groupName} loaded.` };
    }
    case 'session_cleared':
      return { ...state, items: [], loadedGroups: [], status: 'The conversation was cleared.' };
    // The transcript keeps every message: compaction only changes what the model is sent.
    case 'conversation_compacted': {
      const detail = String(d.detail ?? '');
      const note: CompactedItem = { kind: 'compacted', key: `compacted-${live.counter}`, detail };
      return { ...state, items: [...state.items, note], status: detail };
    }
    case 'compaction_failed':
      return { ...state, status: String(d.detail ?? '') };
    case 'turn_finished': {
      const reason = String(d.reason ?? 'completed');
      const detail = String(d.detail ?? '');
      const items = settleLiveItems(state.items);
      if (reason === 'completed') {
        const replied = state.status.startsWith('The assistant replied') ? state.status : 'The reply is complete.';
        return { ...state, items, turn: 'none', live: { ...live, finished: true }, status: replied };
      }
      const stop: TurnStopItem = { kind: 'turn-stop', key: `stop-${live.counter}`, reason, detail };
      return { ...state, items: [...items, stop], turn: 'none', live: { ...live, finished: true }, status: `The turn stopped: ${stopReasonLabel(reason)}. ${detail}` };
    }
    case 'done':
      return state.turn === 'none' ? state : { ...state, turn: 'none', items: settleLiveItems(state.items), live: { ...live, finished: true } };
    case 'error': {
      const code = String(d.code ?? 'error');
      const detail = String(d.detail ?? d.title ?? 'The turn failed.');
      const error: ErrorItem = { kind: 'error', key: `error-${live.counter}`, code, detail };
      return { ...state, items: [...settleLiveItems(state.items), error], turn: 'none', live: { ...live, finished: true }, status: `Error: ${detail}` };
    }
    default:
      // turn_started carries nothing to show; unknown events come from a newer server.
      return state;
  }
}

/** The transcript since the last clear, from a session's stored events. */
export function transcriptFromEvents(events: readonly StoredEvent[], turnInProgress = false): TranscriptItem[] {
  let items: TranscriptItem[] = [];
  for (const event of events) {
    const data = (event.data ?? {}) as Record<string, any>;
    switch (event.type) {
      case 'SessionCleared':
        items = [];
        break;
      case 'MessageSent':
        items = appendMessage(items, data as MessageData);
        break;
      case 'ToolGroupLoaded':
        if (data.source?.kind === 'tool_call') {
          items = updateLast(
            items,
            (item) => item.kind === 'tool' && item.callId === data.source.callId && item.toolName === LOAD_TOOL_GROUP,
            (item) => ({ ...(item as ToolItem), loadedGroup: String(data.groupName) }),
          );
        }
        break;
      case 'ConversationCompacted':
        items.push({
          kind: 'compacted',
          key: event.metadata?.eventId ?? `compacted-${event.revision}`,
          detail: `${Number(data.summarisedMessages ?? 0)} earlier messages were summarised for the model (${String(data.trigger) === 'user' ? '/compact' : 'the context window was nearly full'}).`,
        });
        break;
      // Superseded messages stay in the stream (and the audit); the chat shows the conversation as the model now has it.
      case 'TurnRetried':
        items = supersede(items, String(data.messageId), 'retry');
        break;
      case 'UserMessageEdited':
        items = supersede(items, String(data.messageId), 'edit');
        break;
      case 'TurnFinished':
        if (data.reason !== 'completed') items.push({ kind: 'turn-stop', key: event.metadata?.eventId ?? `stop-${event.revision}`, reason: String(data.reason), detail: String(data.detail ?? '') });
        break;
    }
  }
  return settleStored(items, turnInProgress);
}

/** The transcript from a session view's messages (no stop notices: they are only in the events); superseded ones are left out. */
export function transcriptFromMessages(messages: readonly MessageData[], turnInProgress = false, supersededMessageIds: readonly string[] = []): TranscriptItem[] {
  let items: TranscriptItem[] = [];
  for (const message of messages) if (!supersededMessageIds.includes(message.messageId)) items = appendMessage(items, message);
  return settleStored(items, turnInProgress);
}

function appendMessage(items: TranscriptItem[], message: MessageData): TranscriptItem[] {
  switch (message.role) {
    case 'user':
      return [...items, { kind: 'user', key: message.messageId, text: message.text, messageId: message.messageId }];
    case 'assistant': {
      const next: TranscriptItem[] = message.text ? [...items, { kind: 'assistant', key: message.messageId, text: message.text, streaming: false }] : [...items];
      (message.toolCalls ?? []).forEach((call, index) => {
        next.push({ kind: 'tool', key: `${message.messageId}:${index}`, callId: call.callId, toolName: call.toolName, arguments: call.arguments ?? {}, status: 'running' });
      });
      return next;
    }
    case 'tool':
      // Call ids can repeat across rounds (Gemini), so a result goes to the latest open call with its id.
      return updateLast(
        items,
        (item) => item.kind === 'tool' && item.callId === message.callId && item.status === 'running',
        (item) => ({
          ...(item as ToolItem),
          status: message.status,
          durationMs: message.durationMs,
          output: message.status === 'success' ? message.result : message.message,
          outputIsPreview: false,
          ...(message.status === 'error' ? { errorType: message.errorType } : {}),
        }),
      );
    default:
      return items;
  }
}

/**
 * Drops what a retry (everything after the user message) or an edit (the user message and
 * everything after it) supersedes: its replies, tool cards and stop notices.
 */
function supersede(items: readonly TranscriptItem[], messageId: string, kind: 'retry' | 'edit'): TranscriptItem[] {
  const at = items.findIndex((item) => item.kind === 'user' && item.messageId === messageId);
  if (at < 0) return [...items];
  return items.slice(0, kind === 'retry' ? at + 1 : at);
}

/**
 * Where the chat offers retry and edit: the last user message (stored, so the server knows its
 * id) can be edited, and the last reply or stop notice after it carries Retry. None while
 * something after it is only on this page (a message not sent).
 */
export interface RedoTargets {
  readonly messageId: string;
  /** The key of the user item to offer Edit on. */
  readonly editKey: string;
  /** The key of the item to offer Retry on (the last reply or stop notice), if any. */
  readonly retryKey?: string;
}

export function redoTargets(items: readonly TranscriptItem[]): RedoTargets | undefined {
  let at = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i]?.kind === 'user') {
      at = i;
      break;
    }
  }
  const user = items[at];
  if (!user || user.kind !== 'user' || !user.messageId || user.pending || user.unsent !== undefined) return undefined;
  let retryKey: string | undefined;
  for (let i = items.length - 1; i > at && retryKey === undefined; i--) {
    const item = items[i] as TranscriptItem;
    if (item.kind === 'turn-stop' || (item.kind === 'assistant' && !item.streaming)) retryKey = item.key;
  }
  return { messageId: user.messageId, editKey: user.key, ...(retryKey ? { retryKey } : {}) };
}

/** Calls without a result are running only while a turn runs; otherwise they never got one (a crash). */
function settleStored(items: TranscriptItem[], turnInProgress: boolean): TranscriptItem[] {
  return turnInProgress ? items : items.map((item) => (item.kind === 'tool' && item.status === 'running' ? { ...item, status: 'no_result' } : item));
}

/** When a turn ends: stop the streaming caret, and calls that never finished have no result. */
function settleLiveItems(items: readonly TranscriptItem[]): TranscriptItem[] {
  return items.map((item) => {
    if (item.kind === 'assistant' && item.streaming) return { ...item, streaming: false };
    if (item.kind === 'tool' && item.status === 'running') return { ...item, status: 'no_result' };
    if (item.kind === 'user' && item.pending) return { ...item, pending: false };
    return item;
  });
}

function updateLast(items: readonly TranscriptItem[], match: (item: TranscriptItem) => boolean, update: (item: TranscriptItem) => TranscriptItem): TranscriptItem[] {
  const copy = [...items];
  for (let i = copy.length - 1; i >= 0; i--) {
    if (match(copy[i]!)) {
      copy[i] = update(copy[i]!);
      break;
    }
  }
  return copy;
}

/** The group a `load_tool_group` call asked for (its parameter is `group_name`). */
export function requestedGroup(args: unknown): string | undefined {
  const value = args && typeof args === 'object' ? (args as Record<string, unknown>).group_name : undefined;
  return typeof value === 'string' ? value.trim() : undefined;
}

const STOP_LABELS: Readonly<Record<string, string>> = {
  completed: 'Completed',
  round_cap: 'Round limit reached',
  cancelled: 'Cancelled',
  loop_breaker: 'Stopped a repeating failing call',
  provider_error: 'Model API error',
  interrupted: 'Interrupted (the server stopped)',
};

/** Words for a stop reason; an unknown one (a newer server) is shown as it is. */
export function stopReasonLabel(reason: string): string {
  return STOP_LABELS[reason] ?? reason.replace(/_/g, ' ');
}

/** A stop the user should read as a failure (styled as an error) rather than as information. */
export function isFailureStop(reason: string): boolean {
  return reason === 'provider_error' || reason === 'interrupted' || reason === 'loop_breaker';
}

/** The session's title in the chat header: its first user message, as the session list shows it. */
export function sessionTitle(items: readonly TranscriptItem[], maxChars = 80): string {
  const first = items.find((item): item is UserItem => item.kind === 'user');
  const text = first?.text.replace(/\s+/g, ' ').trim() ?? '';
  if (!text) return 'New conversation';
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

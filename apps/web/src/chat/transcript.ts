import type { StreamEvent } from '../api/client';
import type {
  AttachmentRef,
  MessageData,
  SessionEvent,
  SessionView,
  StoredEvent,
  ToolGroupLoadSource,
  TurnStopReason,
  TurnStreamEventName,
  TurnStreamEvents,
} from '@oneclaw/api-contract';

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
  /** Files attached to the message (already uploaded; shown as thumbnails and links). */
  readonly attachments?: readonly AttachmentRef[];
  /** The server's id, once the message is read from the stored session: retry and edit name it. */
  readonly messageId?: string;
}

export interface AssistantItem {
  readonly kind: 'assistant';
  readonly key: string;
  readonly text: string;
  /** Still receiving `text_delta`s. */
  readonly streaming: boolean;
  /** The provider and model that produced the reply, shown quietly under it. */
  readonly answeredBy?: AnsweredBy;
  /** The model's reasoning ("thinking"), shown collapsed above the reply, as plain text. */
  readonly reasoning?: string;
}

export interface AnsweredBy {
  readonly provider: string;
  readonly model: string;
}

/** A `provider_retry` update: the model request failed and is sent again after `waitMs`. */
export interface ProviderRetry {
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly waitMs: number;
  readonly reason: string;
  readonly status?: number;
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
  /** Also a reason newer than this bundle (shown as it is), or `cleared`. */
  readonly reason: TurnStopReason | (string & {});
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
  /** This turn's answer so far (a message without tool calls, or the text streaming now), for the status line. */
  readonly reply?: string;
  readonly counter: number;
  /** Sent, or the model asked, and no token of this round yet: the page shows "Thinking…". */
  readonly waiting?: boolean;
  /** Who the running round asks (`model_requested`). */
  readonly answeredBy?: AnsweredBy;
  /** The provider failed and the server retries: said in the thinking notice until a token arrives. */
  readonly retry?: ProviderRetry;
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
  | { readonly type: 'send'; readonly text: string; readonly idempotencyKey?: string; readonly retryOf?: string; readonly attachments?: readonly AttachmentRef[] }
  | { readonly type: 'sse'; readonly event: StreamEvent }
  /** The stream closed; `aborted` when this page closed it. */
  | { readonly type: 'stream-ended'; readonly aborted: boolean }
  /**
   * The send failed; `refused` when nothing was recorded (an answer before the stream opened),
   * `unreachable` when no answer came at all (the message stays, marked not sent).
   */
  | {
      readonly type: 'stream-failed';
      readonly refused: boolean;
      readonly unreachable?: boolean;
      /**
       * Refused because a turn started elsewhere runs: the busy notice says so, no error card.
       * `send`: a message, whose text goes back in the box; `redo`: a retry or an edit.
       */
      readonly busyElsewhere?: 'send' | 'redo';
      readonly code: string;
      readonly detail: string;
    }
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
      const sent: UserItem = {
        kind: 'user',
        key: `local-${counter}`,
        text: action.text,
        pending: true,
        ...(action.idempotencyKey ? { idempotencyKey: action.idempotencyKey } : {}),
        ...(action.attachments?.length ? { attachments: action.attachments } : {}),
      };
      const items = command ? kept : [...kept, sent];
      const status = isClearCommand(action.text) ? 'Clearing the conversation…' : command ? 'Compacting the conversation…' : 'Message sent. Waiting for the reply…';
      return { ...state, items, turn: 'running', busyElsewhere: false, live: { ...live, waiting: !command }, status };
    }
    case 'redo': {
      // What the retry or edit supersedes leaves the screen at once, as the stored session will show it.
      const counter = state.live.counter + 1;
      const live: LiveTurn = { round: 0, assistantKey: `live-${counter}`, toolIndex: 0, finished: false, counter };
      const kept = supersede(
        state.items.filter((item) => item.kind !== 'error'),
        action.messageId,
        action.kind,
      );
      const items: TranscriptItem[] = action.kind === 'edit' ? [...kept, { kind: 'user', key: `local-${counter}`, text: action.text, pending: true }] : kept;
      const status = action.kind === 'edit' ? 'Edited message sent. Waiting for the reply…' : 'Retrying. Waiting for a new reply…';
      return { ...state, items, turn: 'running', busyElsewhere: false, live: { ...live, waiting: true }, status };
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
        // What had streamed stays on screen (and the server records it): that is a reply too.
        const streamed = state.items.filter((item): item is AssistantItem => item.kind === 'assistant' && item.streaming).at(-1)?.text;
        return { ...state, turn: 'none', items: [...items, stop], status: turnFinishedStatus('cancelled', stop.detail, state.live.reply ?? streamed) };
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
      if (action.busyElsewhere) {
        return {
          ...state,
          turn: 'none',
          items,
          busyElsewhere: true,
          status:
            action.busyElsewhere === 'send'
              ? 'Not sent: the session is answering a message sent from another window. Your message is back in the box.'
              : 'Not done: the session is answering a message sent from another window. Try again when that reply is over.',
        };
      }
      const error: ErrorItem = { kind: 'error', key: `error-${state.live.counter}`, code: action.code, detail: action.detail };
      return { ...state, turn: 'none', items: [...items, error], status: `Error: ${action.detail}` };
    }
  }
}

/**
 * An event's data as the UI reads it: the field names are the server's (@oneclaw/api-contract),
 * so a renamed field fails the build; each value stays `unknown` until it is checked where it is
 * read, since what arrives may come from an older or newer server. Anything but an object has no
 * fields.
 */
type Loose<T> = { readonly [K in NamedKeys<T>]?: unknown };
/** The keys a type names, without an index signature's (`[extra: string]: unknown` would let any name through). */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

function fields<T>(data: unknown): Loose<T> {
  return typeof data === 'object' && data !== null ? (data as Loose<T>) : {};
}

/** The data of a turn's stream event `E`. */
const streamData = <E extends TurnStreamEventName>(data: unknown) => fields<TurnStreamEvents[E]>(data);
/** The data of a stored session event of type `T`. */
const storedData = <T extends SessionEvent['type']>(data: unknown) => fields<Extract<SessionEvent, { readonly type: T }>['data']>(data);

/** A string field, or empty when it is missing or not a string. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : '');
/** A number field, or 0 when it is missing or not a finite number. */
const asNumber = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

function applyStreamEvent(state: ChatState, { event, data }: StreamEvent): ChatState {
  const { live } = state;
  switch (event) {
    case 'turn_started':
      return { ...state, items: state.items.map((item) => (item.kind === 'user' && item.pending ? { ...item, pending: false } : item)) };
    case 'model_requested': {
      const d = streamData<'model_requested'>(data);
      const answeredBy = answeredByOf(d) ?? live.answeredBy;
      return {
        ...state,
        live: { ...live, round: asNumber(d.round) || live.round + 1, waiting: true, retry: undefined, ...(answeredBy ? { answeredBy } : {}) },
        status: state.turn === 'cancelling' ? state.status : 'The assistant is thinking…',
      };
    }
    case 'provider_retry':
      return { ...state, live: { ...live, waiting: true, retry: retryOf(streamData<'provider_retry'>(data)) } };
    case 'reasoning_delta':
      return appendToDraft(state, { reasoning: asText(streamData<'reasoning_delta'>(data).text) });
    case 'text_delta':
      return { ...appendToDraft(state, { text: asText(streamData<'text_delta'>(data).text) }), status: 'The assistant is replying…' };
    case 'assistant_message': {
      const d = streamData<'assistant_message'>(data);
      const key = asText(d.messageId) || `${live.assistantKey}-${live.round}`;
      const replyText = asText(d.text);
      const draft = state.items.find((item): item is AssistantItem => item.kind === 'assistant' && item.streaming);
      const reasoning = typeof d.reasoning === 'string' ? d.reasoning : draft?.reasoning;
      const answeredBy = answeredByOf(d) ?? live.answeredBy;
      const withoutDraft = state.items.filter((item) => !(item.kind === 'assistant' && item.streaming));
      const reply: AssistantItem = { kind: 'assistant', key, text: replyText, streaming: false, ...(answeredBy ? { answeredBy } : {}), ...(reasoning ? { reasoning } : {}) };
      const items = replyText || reasoning ? [...withoutDraft, reply] : withoutDraft;
      const calls = asNumber(d.toolCalls);
      const status = calls > 0 ? `Running ${calls} tool call${calls === 1 ? '' : 's'}…` : replyText ? `The assistant replied: ${replyText}` : state.status;
      const answer = calls > 0 ? live.reply : replyText;
      return { ...state, items, live: { ...live, assistantKey: key, toolIndex: 0, waiting: false, retry: undefined, reply: answer }, status };
    }
    case 'tool_call_started': {
      const d = streamData<'tool_call_started'>(data);
      const card: ToolItem = {
        kind: 'tool',
        key: `${live.assistantKey}:${live.toolIndex}`,
        callId: asText(d.callId),
        toolName: asText(d.toolName),
        arguments: d.arguments ?? {},
        status: 'running',
      };
      return { ...state, items: [...state.items, card], live: { ...live, toolIndex: live.toolIndex + 1 } };
    }
    case 'tool_call_finished': {
      const d = streamData<'tool_call_finished'>(data);
      const status = d.status === 'error' ? 'error' : 'success';
      const items = updateLast(
        state.items,
        (item) => item.kind === 'tool' && item.callId === d.callId && item.status === 'running',
        (item) => ({
          ...(item as ToolItem),
          status,
          durationMs: typeof d.durationMs === 'number' ? d.durationMs : undefined,
          ...(status === 'error' ? { errorType: asText(d.errorType) || 'error' } : {}),
          output: asText(d.preview),
          outputIsPreview: true,
        }),
      );
      return { ...state, items };
    }
    case 'group_loaded': {
      const groupName = asText(streamData<'group_loaded'>(data).groupName);
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
      const detail = asText(streamData<'conversation_compacted'>(data).detail);
      const note: CompactedItem = { kind: 'compacted', key: `compacted-${live.counter}`, detail };
      return { ...state, items: [...state.items, note], status: detail };
    }
    case 'compaction_failed':
      return { ...state, status: asText(streamData<'compaction_failed'>(data).detail) };
    case 'turn_finished': {
      const d = streamData<'turn_finished'>(data);
      const reason = asText(d.reason) || 'completed';
      const detail = asText(d.detail);
      const items = settleLiveItems(state.items);
      const status = turnFinishedStatus(reason, detail, live.reply);
      if (reason === 'completed') return { ...state, items, turn: 'none', live: { ...live, finished: true }, status };
      const stop: TurnStopItem = { kind: 'turn-stop', key: `stop-${live.counter}`, reason, detail };
      return { ...state, items: [...items, stop], turn: 'none', live: { ...live, finished: true }, status };
    }
    case 'done':
      return state.turn === 'none' ? state : { ...state, turn: 'none', items: settleLiveItems(state.items), live: { ...live, finished: true } };
    case 'error': {
      const d = streamData<'error'>(data);
      const code = asText(d.code) || 'error';
      const detail = asText(d.detail) || asText(d.title) || 'The turn failed.';
      const error: ErrorItem = { kind: 'error', key: `error-${live.counter}`, code, detail };
      return { ...state, items: [...settleLiveItems(state.items), error], turn: 'none', live: { ...live, finished: true }, status: `Error: ${detail}` };
    }
    default:
      // turn_started carries nothing to show; unknown events come from a newer server.
      return state;
  }
}

/**
 * A streamed piece of the running reply: the first one (text or reasoning) opens a draft reply
 * and ends the "Thinking…" wait; later ones grow it.
 */
function appendToDraft(state: ChatState, piece: { readonly text?: string; readonly reasoning?: string }): ChatState {
  const { live } = state;
  const next = { ...state, live: { ...live, waiting: false, retry: undefined } };
  const last = state.items[state.items.length - 1];
  if (last?.kind === 'assistant' && last.streaming) {
    const grown: AssistantItem = {
      ...last,
      text: last.text + (piece.text ?? ''),
      ...(piece.reasoning ? { reasoning: (last.reasoning ?? '') + piece.reasoning } : {}),
    };
    return { ...next, items: [...state.items.slice(0, -1), grown] };
  }
  const draft: AssistantItem = {
    kind: 'assistant',
    key: `draft-${live.counter}-${live.round}`,
    text: piece.text ?? '',
    streaming: true,
    ...(live.answeredBy ? { answeredBy: live.answeredBy } : {}),
    ...(piece.reasoning ? { reasoning: piece.reasoning } : {}),
  };
  return { ...next, items: [...state.items, draft] };
}

function answeredByOf(data: { readonly provider?: unknown; readonly model?: unknown }): AnsweredBy | undefined {
  return typeof data.provider === 'string' && data.provider && typeof data.model === 'string' && data.model ? { provider: data.provider, model: data.model } : undefined;
}

function retryOf(data: Loose<TurnStreamEvents['provider_retry']>): ProviderRetry {
  return {
    attempt: asNumber(data.attempt) || 2,
    maxAttempts: asNumber(data.maxAttempts) || asNumber(data.attempt) || 2,
    waitMs: Math.max(0, asNumber(data.waitMs)),
    reason: asText(data.reason),
    ...(typeof data.status === 'number' ? { status: data.status } : {}),
  };
}

/**
 * What the waiting indicator says, or undefined when nothing is awaited: from the send (or a
 * model request) to the first token, with the provider's retries in words.
 */
export function waitingNotice(state: ChatState): string | undefined {
  if (state.turn !== 'running' || !state.live.waiting) return undefined;
  return state.live.retry ? retryNotice(state.live.retry) : 'Thinking…';
}

/** "The provider is busy (HTTP 429); retrying in 4 s (attempt 2 of 3)." */
export function retryNotice(retry: ProviderRetry): string {
  const why = retry.reason === 'provider_rate_limited' ? 'is busy' : retry.status !== undefined ? 'is unavailable' : 'could not be reached';
  const seconds = Math.ceil(retry.waitMs / 1000);
  const when = seconds > 0 ? `retrying in ${seconds} s` : 'retrying now';
  return `The provider ${why}${retry.status !== undefined ? ` (HTTP ${retry.status})` : ''}; ${when} (attempt ${retry.attempt} of ${retry.maxAttempts}).`;
}

/** The transcript since the last clear, from a session's stored events. */
export function transcriptFromEvents(events: readonly StoredEvent[], turnInProgress = false): TranscriptItem[] {
  let items: TranscriptItem[] = [];
  // Older streams do not name the model on the message: the request before it does.
  let requested: AnsweredBy | undefined;
  for (const event of events) {
    switch (event.type) {
      case 'SessionCleared':
        items = [];
        break;
      case 'ModelRequested':
        requested = answeredByOf(storedData<'ModelRequested'>(event.data));
        break;
      case 'MessageSent':
        items = appendMessage(items, event.data as MessageData, requested);
        break;
      case 'ToolGroupLoaded': {
        const d = storedData<'ToolGroupLoaded'>(event.data);
        const source = fields<Extract<ToolGroupLoadSource, { readonly kind: 'tool_call' }>>(d.source);
        if (source.kind === 'tool_call') {
          items = updateLast(
            items,
            (item) => item.kind === 'tool' && item.callId === source.callId && item.toolName === LOAD_TOOL_GROUP,
            (item) => ({ ...(item as ToolItem), loadedGroup: asText(d.groupName) }),
          );
        }
        break;
      }
      case 'ConversationCompacted': {
        const d = storedData<'ConversationCompacted'>(event.data);
        items.push({
          kind: 'compacted',
          key: event.metadata?.eventId ?? `compacted-${event.revision}`,
          detail: `${asNumber(d.summarisedMessages)} earlier messages were summarised for the model (${compactionCause(asText(d.trigger))}).`,
        });
        break;
      }
      // Superseded messages stay in the stream (and the audit); the chat shows the conversation as the model now has it.
      case 'TurnRetried':
        items = supersede(items, asText(storedData<'TurnRetried'>(event.data).messageId), 'retry');
        break;
      case 'UserMessageEdited':
        items = supersede(items, asText(storedData<'UserMessageEdited'>(event.data).messageId), 'edit');
        break;
      case 'TurnFinished': {
        const d = storedData<'TurnFinished'>(event.data);
        if (d.reason !== 'completed')
          items.push({ kind: 'turn-stop', key: event.metadata?.eventId ?? `stop-${event.revision}`, reason: asText(d.reason), detail: asText(d.detail) });
        break;
      }
    }
  }
  return settleStored(items, turnInProgress);
}

/** Why a compaction happened, in the user's words (ConversationCompacted.trigger). */
function compactionCause(trigger: string): string {
  if (trigger === 'user') return '/compact';
  if (trigger === 'overflow') return 'the provider said the conversation was too long';
  return 'the context window was nearly full';
}

/** The transcript from a session view's messages (no stop notices: they are only in the events); superseded ones are left out. */
export function transcriptFromMessages(messages: readonly MessageData[], turnInProgress = false, supersededMessageIds: readonly string[] = []): TranscriptItem[] {
  let items: TranscriptItem[] = [];
  for (const message of messages) if (!supersededMessageIds.includes(message.messageId)) items = appendMessage(items, message);
  return settleStored(items, turnInProgress);
}

function appendMessage(items: TranscriptItem[], message: MessageData, requested?: AnsweredBy): TranscriptItem[] {
  switch (message.role) {
    case 'user':
      return [
        ...items,
        { kind: 'user', key: message.messageId, text: message.text, messageId: message.messageId, ...(message.attachments?.length ? { attachments: message.attachments } : {}) },
      ];
    case 'assistant': {
      const answeredBy = answeredByOf(message) ?? requested;
      const reasoning = typeof message.reasoning === 'string' ? message.reasoning : '';
      const reply: AssistantItem = {
        kind: 'assistant',
        key: message.messageId,
        text: message.text,
        streaming: false,
        ...(answeredBy ? { answeredBy } : {}),
        ...(reasoning ? { reasoning } : {}),
      };
      const next: TranscriptItem[] = message.text || reasoning ? [...items, reply] : [...items];
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

/**
 * What the status line (the chat's polite live region) says when a turn ends, for every stop
 * reason. It first says whether the assistant replied: a cancelled turn whose partial reply was
 * kept did reply, and "the turn stopped" alone read as if nothing had come back.
 *
 * `reply` is the answer of this turn (a message without tool calls, complete or partial); text
 * sent alongside tool calls is not an answer, so a turn that stops after tool rounds has none.
 */
export function turnFinishedStatus(reason: string, detail: string, reply: string | undefined): string {
  const answered = reply !== undefined && reply.trim() !== '';
  if (reason === 'completed') return answered ? `The assistant replied: ${reply}` : 'The assistant finished without a reply.';
  const why = stopReasonLabel(reason);
  if (answered) return `The assistant replied (stopped early: ${why}): ${reply}`;
  const what = isFailureStop(reason) ? 'The turn failed' : 'The turn stopped';
  return `${what} before the assistant replied: ${why}.${detail ? ` ${detail}` : ''}`;
}

/** The session's title in the chat header: its first user message (a message of files only: their names), as the session list shows it. */
export function sessionTitle(items: readonly TranscriptItem[], maxChars = 80): string {
  const first = items.find((item): item is UserItem => item.kind === 'user');
  const text = first?.text.replace(/\s+/g, ' ').trim() || (first?.attachments ?? []).map((a) => a.name).join(', ');
  if (!text) return 'New conversation';
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

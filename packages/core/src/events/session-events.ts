import type { ReasoningEffort } from '../config/config-events';
import type { EventEnvelope } from './event-envelope';

/** Schema version written into new session events; readers accept this version and older. */
export const SESSION_EVENT_SCHEMA_VERSION = 1;

export interface ToolCall {
  readonly callId: string;
  readonly toolName: string;
  /** Parsed JSON arguments as the model sent them (never containing `_env` values). */
  readonly arguments: Readonly<Record<string, unknown>>;
}

export type ToolCallStatus = 'success' | 'error';

/**
 * The server process that runs a turn. A replica runs one process at a time, so a turn recorded
 * by this replica's id that is not running in this process was cut off (docs/events.md).
 */
export interface TurnHost {
  /** Stable per replica (ONECLAW_REPLICA_ID, default the host name). */
  readonly replicaId: string;
  /** New at every process start. */
  readonly processId: string;
}

export interface UserMessageData {
  readonly messageId: string;
  readonly role: 'user';
  readonly text: string;
  /** The turn this message opens (absent in streams recorded before turns were tracked). */
  readonly turnId?: string;
  /** Who runs the turn; absent in older streams. */
  readonly host?: TurnHost;
  /** Files attached to the message: references into the attachment store, never the bytes. Absent when none. */
  readonly attachments?: readonly AttachmentRef[];
}

/** Media types a message may carry (docs/api.md, "Attachments"). */
export const ATTACHMENT_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'] as const;
export type AttachmentMediaType = (typeof ATTACHMENT_MEDIA_TYPES)[number];

/**
 * A file attached to a user message. The bytes live in the content-addressed attachment store
 * (docs/decisions/attachment-storage.md); the event keeps what names and checks them.
 */
export interface AttachmentRef {
  /** SHA-256 of the bytes, 64 lowercase hex digits: the file's name in the store. */
  readonly hash: string;
  /** The file name the user attached (shown, and told to the model). */
  readonly name: string;
  readonly mediaType: AttachmentMediaType;
  /** Size in bytes. */
  readonly bytes: number;
}

/**
 * What the server changed in a model reply before recording it: the model is untrusted input,
 * and a malformed or huge reply is recorded (and answered) rather than failing the turn.
 */
export interface ReplyAdjustments {
  /**
   * Calls whose id was missing, already used in the reply, or over `MAX_CALL_ID_CHARS`;
   * `originalCallId` is what the model sent ('' for none), and for an over-long id its start
   * only, with `originalCallIdChars` its length.
   */
  readonly renamedCalls?: readonly { readonly callId: string; readonly originalCallId: string; readonly originalCallIdChars?: number }[];
  /** Calls the model sent without a tool name; they are recorded under `MISSING_TOOL_NAME` and answered `tool_not_found`. */
  readonly unnamedCalls?: readonly string[];
  /**
   * Calls whose tool name was over `MAX_TOOL_NAME_CHARS` (longer than any tool's): recorded under
   * `LONG_TOOL_NAME` and answered `tool_not_found`; `start` is the name's start, `chars` its length.
   */
  readonly longToolNames?: readonly { readonly callId: string; readonly start: string; readonly chars: number }[];
  /** The reply was over the append limit: what was cut to record it. */
  readonly cut?: ReplyCut;
  /**
   * The provider state (Anthropic's signed thinking blocks) held a known secret: it was not
   * recorded, since a signed block cannot be redacted. The reasoning text is recorded redacted.
   */
  readonly providerMetadataWithheld?: true;
  /** Calls that repeat an earlier call of the reply (same tool, same arguments): not run again, answered with that call's result. */
  readonly duplicateCalls?: readonly DuplicateCall[];
  /** The reply had more calls than `MAX_TOOL_CALLS_PER_REPLY`: those after the limit were dropped (not recorded, not run). */
  readonly callsDropped?: CallsDropped;
}

export interface CallsDropped {
  /** The most calls taken from one reply. */
  readonly limit: number;
  /** How many calls after the first `limit` were dropped. */
  readonly count: number;
}

export interface DuplicateCall {
  readonly callId: string;
  /** The earlier call of the same reply that ran. */
  readonly sameAs: string;
}

export interface ReplyCut {
  /** The size limit the recorded event had to fit (bytes of JSON). */
  readonly limitBytes: number;
  /** Bytes (UTF-8) of the reply text as the model sent it, and as recorded. */
  readonly textBytes: number;
  readonly keptTextBytes: number;
  /** Calls whose arguments were replaced by a marker (they ran with the full arguments). */
  readonly argumentsCut: readonly string[];
  /** The provider state (thinking blocks, signatures) was dropped. */
  readonly providerMetadataDropped: boolean;
  /** Bytes (UTF-8) of the reasoning as streamed and as recorded; only when the reply had reasoning. */
  readonly reasoningBytes?: number;
  readonly keptReasoningBytes?: number;
}

export interface AssistantMessageData {
  readonly messageId: string;
  readonly role: 'assistant';
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /**
   * Opaque provider state to send back with this message on the next request to the same
   * provider (Anthropic thinking blocks, Gemini thought signatures). Kept in the event so a
   * replayed or restarted session rebuilds the same request. Never holds secrets.
   */
  readonly providerMetadata?: { readonly provider: string; readonly data: unknown };
  /** Present only when the server had to change the reply to record it. */
  readonly adjustments?: ReplyAdjustments;
  /**
   * The turn was cancelled while this reply streamed: `text` is what had streamed (what the
   * user saw), with no tool calls. Kept so the record and the next request match the screen.
   */
  readonly partial?: true;
  /**
   * Tokens the provider reported for the request that produced this reply. `inputTokens` is how
   * full the context window was: automatic compaction reads it from the stream, so the decision
   * is the same after a restart or on another replica. Absent in older streams.
   */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  /**
   * The provider and model that produced this reply (the UI shows them on the message). The
   * `ModelRequested` before it says the same; kept here too so a message read on its own (the
   * session view) names its model. Absent in older streams: readers fall back to the last
   * `ModelRequested` before the message.
   */
  readonly provider?: string;
  readonly model?: string;
  /**
   * The reasoning ("thinking") the provider streamed before the answer, as plain text, redacted
   * like the reply: Anthropic thinking blocks, Gemini thought summaries, `reasoning_content` of
   * OpenAI-compatible servers. Shown to the user, never sent back to the model (Anthropic's
   * signed blocks travel in `providerMetadata`). Cut first when the reply is over the append
   * limit. Absent when the provider sent none, and in older streams.
   */
  readonly reasoning?: string;
}

interface ToolResultBase {
  readonly messageId: string;
  readonly role: 'tool';
  readonly callId: string;
  readonly toolName: string;
  readonly durationMs: number;
}

export interface ToolSuccessData extends ToolResultBase {
  readonly status: 'success';
  readonly result: string;
}

export interface ToolErrorData extends ToolResultBase {
  readonly status: 'error';
  readonly errorType: string;
  readonly message: string;
}

export type ToolResultMessageData = ToolSuccessData | ToolErrorData;
export type MessageData = UserMessageData | AssistantMessageData | ToolResultMessageData;

/** Who asked for a group: the model through a `load_tool_group` call, or the user directly. */
export type ToolGroupLoadSource = { readonly kind: 'tool_call'; readonly callId: string } | { readonly kind: 'user' };

export type SessionStarted = EventEnvelope<'SessionStarted', { readonly sessionId: string; readonly agentId: string }>;
export type MessageSent = EventEnvelope<'MessageSent', MessageData>;
export type ToolGroupLoaded = EventEnvelope<
  'ToolGroupLoaded',
  {
    readonly groupName: string;
    /** The group's tools as resolved at load time (audit); the live set follows the catalogue. */
    readonly toolNames: readonly string[];
    readonly source: ToolGroupLoadSource;
  }
>;
export type ToolGroupUnloaded = EventEnvelope<'ToolGroupUnloaded', { readonly groupName: string }>;
export type SessionCleared = EventEnvelope<'SessionCleared', { readonly reason: string }>;
export type ModelRequested = EventEnvelope<
  'ModelRequested',
  {
    readonly provider: string;
    readonly model: string;
    /** Exactly the tool names sent with this request, in the order sent. */
    readonly toolNames: readonly string[];
    /** Tokens the tool schemas cost in this request, counted with a real tokenizer. */
    readonly schemaTokens: number;
    /**
     * The model's reasoning setting this request was made with (the config's when it went out; a
     * later change does not rewrite it). The provider maps it to its own field; the Anthropic
     * adapter sends no thinking for the rest of a turn whose tool-calling reply has no signed
     * thinking block (anthropic-provider.ts). Absent: none set (the provider's default), and in
     * streams recorded before it was kept.
     */
    readonly reasoningEffort?: ReasoningEffort;
  }
>;

/**
 * Who asked for a compaction: the server near the context window (`auto`), the user (`/compact`,
 * the API), or the provider refusing a request as longer than its context window (`overflow`:
 * the turn compacts and sends the request once more).
 */
export type CompactionTrigger = 'auto' | 'user' | 'overflow';
/** Every trigger a reader accepts. */
export const COMPACTION_TRIGGERS: readonly CompactionTrigger[] = ['auto', 'user', 'overflow'];

/**
 * The messages up to and including `boundaryMessageId` are replaced, for the model, by `summary`;
 * the messages after it are sent as they are. The stream (and the session view) keeps every
 * message: compaction changes what the model is sent, not the history. Loaded groups are state,
 * not conversation, and are untouched.
 */
export type ConversationCompacted = EventEnvelope<
  'ConversationCompacted',
  {
    readonly summary: string;
    /** The last message the summary covers; the boundary never falls between a call and its result. */
    readonly boundaryMessageId: string;
    /** Messages (since the last clear) the summary replaces, including those an earlier summary covered. */
    readonly summarisedMessages: number;
    readonly trigger: CompactionTrigger;
    /** The provider and model that wrote the summary. */
    readonly provider: string;
    readonly model: string;
    /**
     * Tokens of the conversation part of the request (summary + messages) before and after,
     * both counted with o200k so they compare; the provider's own count, which triggered an
     * automatic compaction, also holds the system prompt and tools.
     */
    readonly tokensBefore: number;
    readonly tokensAfter: number;
    /** The summary was longer than the limit and was cut to it. */
    readonly summaryCut?: boolean;
  }
>;

/** A compaction that did not happen, and why; the conversation stays as it was. */
export type CompactionFailed = EventEnvelope<
  'CompactionFailed',
  {
    readonly trigger: CompactionTrigger;
    /** Stable: `nothing_to_compact`, `summary_failed` (provider error), `summary_empty`, `not_smaller`. */
    readonly code: string;
    readonly detail: string;
    readonly provider?: string;
    readonly model?: string;
  }
>;

/** Why a turn (one user message and the model rounds it caused) ended. */
export type TurnStopReason =
  | 'completed' // the model answered with no tool call
  | 'round_cap' // the agent's round cap was reached
  | 'cancelled' // CancelTurn, or the client went away
  | 'loop_breaker' // the same call kept failing
  | 'provider_error' // the LLM API failed after bounded retries
  | 'interrupted'; // the server stopped mid-turn; recorded at the next start or before the session's next turn

export const TURN_STOP_REASONS: readonly TurnStopReason[] = ['completed', 'round_cap', 'cancelled', 'loop_breaker', 'provider_error', 'interrupted'];

export type TurnFinished = EventEnvelope<
  'TurnFinished',
  {
    readonly reason: TurnStopReason;
    /** Plain words for the user: what stopped the turn and, if it failed, what to do. */
    readonly detail: string;
    /** Model requests made in the turn. */
    readonly rounds: number;
    readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  }
>;

/**
 * The last turn is run again for the same user message (after an error, or for another answer).
 * The user message stays; the messages after it are superseded: the model is no longer sent
 * them, while the stream and the session view keep them. Opens the new turn, as a user message
 * does. Loaded groups are state and stay as they are.
 */
export type TurnRetried = EventEnvelope<
  'TurnRetried',
  {
    /** The new turn, and who runs it (as on a user message). */
    readonly turnId: string;
    readonly host?: TurnHost;
    /** The user message asked again: the last one since the last clear. */
    readonly messageId: string;
    /** The turn that answered it before, when known. */
    readonly supersededTurnId?: string;
    /** Every message after `messageId`, in order; empty when the turn failed before any reply. */
    readonly supersededMessageIds: readonly string[];
  }
>;

/**
 * The last user message is replaced: it and every message after it are superseded (kept in the
 * stream and the view, no longer sent to the model). A user `MessageSent` with id
 * `newMessageId` and the new text follows in the same append and opens the new turn.
 */
export type UserMessageEdited = EventEnvelope<
  'UserMessageEdited',
  {
    /** The user message replaced: the last one since the last clear. */
    readonly messageId: string;
    readonly newMessageId: string;
    /** `messageId` and every message after it, in order. */
    readonly supersededMessageIds: readonly string[];
  }
>;

/**
 * The user named the session. The list shows this title instead of the first message; the
 * conversation and the model's requests are untouched. Absent in older streams.
 */
export type SessionRenamed = EventEnvelope<'SessionRenamed', { readonly title: string }>;

/**
 * The user deleted the session: it leaves the session list and takes no new messages, but the
 * stream stays (the audit reads it). Nothing un-archives a session. Absent in older streams.
 */
export type SessionArchived = EventEnvelope<'SessionArchived', Readonly<Record<string, never>>>;

/** Longest session title (characters, after trimming), as the list and the rename form allow. */
export const SESSION_TITLE_MAX_CHARS = 120;

export type SessionEvent =
  | SessionStarted
  | MessageSent
  | ToolGroupLoaded
  | ToolGroupUnloaded
  | SessionCleared
  | ModelRequested
  | TurnFinished
  | ConversationCompacted
  | CompactionFailed
  | TurnRetried
  | UserMessageEdited
  | SessionRenamed
  | SessionArchived;

export type SessionEventType = SessionEvent['type'];

export const SESSION_EVENT_TYPES: readonly SessionEventType[] = [
  'SessionStarted',
  'MessageSent',
  'ToolGroupLoaded',
  'ToolGroupUnloaded',
  'SessionCleared',
  'ModelRequested',
  'TurnFinished',
  'ConversationCompacted',
  'CompactionFailed',
  'TurnRetried',
  'UserMessageEdited',
  'SessionRenamed',
  'SessionArchived',
];

/** One stream per session. */
export function sessionStreamId(sessionId: string): string {
  return `session-${sessionId}`;
}

import type { MessageData, ToolCall, ToolGroupLoadSource, TurnHost } from '../events/session-events';

export interface LoadedGroup {
  readonly groupName: string;
  /** Tool names recorded when the group was loaded (audit); the live set follows the catalogue. */
  readonly toolNamesAtLoad: readonly string[];
  readonly source: ToolGroupLoadSource;
  readonly loadedAt: string;
}

/** The latest compaction of the conversation: what the model is sent instead of the early messages. */
export interface ConversationSummary {
  readonly text: string;
  readonly boundaryMessageId: string;
  /** Index in `messages` of the first message sent after the summary. */
  readonly keptFrom: number;
}

/** A turn that started (its user message is recorded) and has no `TurnFinished` yet. */
export interface OpenTurn {
  readonly turnId: string;
  readonly startedAt: string;
  /** Absent for turns recorded before hosts were (their runner is unknown). */
  readonly host?: TurnHost;
  /** `occurredAt` of the stream's last event since the turn started: how long it has been silent. */
  readonly lastEventAt: string;
  /** Model requests made in the turn so far (the `rounds` an interruption records). */
  readonly rounds: number;
}

/**
 * The last user message since the last clear: what `RetryTurn` and `EditLastUserMessage` act
 * on, and what the model's context was when it was sent, so superseding what followed it can
 * put that back (a compaction recorded since may have summarised the superseded part).
 */
export interface LastUserMessage {
  readonly messageId: string;
  /** Its index in `messages`. */
  readonly index: number;
  readonly summaryBefore: ConversationSummary | null;
  readonly lastInputTokensBefore: number | null;
}

/**
 * A session as its event stream says it is. Built only by `evolve`; stored only as a snapshot
 * (session-state-codec.ts), a cache that is rebuilt from the stream whenever in doubt.
 * `messages` and `loadedGroups` cover the conversation since the last clear; `messages` leaves out
 * what a retry or an edit superseded (`supersededMessageIds`).
 */
export interface SessionState {
  readonly status: 'not_started' | 'active';
  readonly sessionId: string | null;
  readonly agentId: string | null;
  readonly startedAt: string | null;
  readonly messages: readonly MessageData[];
  /**
   * Every message since the last clear in stream order, superseded ones included: the
   * conversation as it happened, for the session view. Equal to `messages` until a retry or an edit.
   */
  readonly transcript: readonly MessageData[];
  /**
   * Messages of `transcript` that a retry or an edit superseded (`TurnRetried`,
   * `UserMessageEdited`): not in `messages`, never sent to the model again; a chat hides them.
   */
  readonly supersededMessageIds: readonly string[];
  readonly lastUserMessage: LastUserMessage | null;
  /** The turn opened last (by a user message or a retry), even if a clear came after. */
  readonly lastTurnId: string | null;
  /**
   * Every turn the stream has opened (by a user message, a retry or an edit), clears and later
   * turns included: how a request retried with the same Idempotency-Key is known to have run
   * (its turn id derives from the key), however much happened since. Only grows, by one short id
   * a turn; shared between states until a fold adds to it (evolve.ts).
   */
  readonly openedTurnIds: ReadonlySet<string>;
  /** In load order, each group once. */
  readonly loadedGroups: readonly LoadedGroup[];
  /** Tool calls of the conversation that have no result yet, by call id. */
  readonly pendingToolCalls: ReadonlyMap<string, ToolCall>;
  /**
   * The turn in progress, or cut off: a user message with no `TurnFinished` after it. A clear
   * does not end it (the turn that cleared, or runs on, still records its stop).
   */
  readonly openTurn: OpenTurn | null;
  /** Set by `ConversationCompacted`; a clear removes it. */
  readonly summary: ConversationSummary | null;
  /**
   * Input tokens of the latest model request (from the latest assistant reply's usage), or null
   * when unknown or when a compaction (done or failed) has happened since: compaction is tried
   * at most once per request that reported a full window.
   */
  readonly lastInputTokens: number | null;
  /** Model requests over the whole stream (clearing does not reset it: audit numbering). */
  readonly modelRequestCount: number;
  readonly clearCount: number;
  /** Set by `SessionRenamed` (a clear keeps it): the list shows it instead of the first message. */
  readonly title: string | null;
  /** `occurredAt` of `SessionArchived`, or null: an archived session refuses new turns and changes. */
  readonly archivedAt: string | null;
  /** Events evolve could not apply (unknown type, malformed data); kept so callers can report them. */
  readonly skippedEvents: number;
  /** Number of events applied or skipped so far: the stream's next revision. */
  readonly eventCount: number;
}

export const initialSessionState: SessionState = Object.freeze({
  status: 'not_started',
  sessionId: null,
  agentId: null,
  startedAt: null,
  messages: [],
  transcript: [],
  supersededMessageIds: [],
  lastUserMessage: null,
  lastTurnId: null,
  openedTurnIds: new Set<string>(),
  loadedGroups: [],
  pendingToolCalls: new Map(),
  openTurn: null,
  summary: null,
  lastInputTokens: null,
  modelRequestCount: 0,
  clearCount: 0,
  title: null,
  archivedAt: null,
  skippedEvents: 0,
  eventCount: 0,
});

export function isGroupLoaded(state: SessionState, groupName: string): boolean {
  return state.loadedGroups.some((g) => g.groupName === groupName);
}

import type { ReasoningEffort } from '../config/config-events';
import type { AttachmentRef, CompactionTrigger, ReplyAdjustments, ToolCall, ToolGroupLoadSource, TurnHost, TurnStopReason } from '../events/session-events';

export interface StartSession {
  readonly type: 'StartSession';
  readonly sessionId: string;
  readonly agentId: string;
}

export interface RecordUserMessage {
  readonly type: 'RecordUserMessage';
  readonly messageId: string;
  readonly text: string;
  /** The turn the message opens, and who runs it: how a cut-off turn is found and closed. */
  readonly turnId?: string;
  readonly host?: TurnHost;
  /** Files attached to the message, already in the attachment store. */
  readonly attachments?: readonly AttachmentRef[];
}

export interface RecordAssistantMessage {
  readonly type: 'RecordAssistantMessage';
  readonly messageId: string;
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly providerMetadata?: { readonly provider: string; readonly data: unknown };
  readonly adjustments?: ReplyAdjustments;
  /** What had streamed when the turn was cancelled; such a reply has no tool calls. */
  readonly partial?: boolean;
  /** The provider's token counts for the request that produced the reply. */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  /** Which provider and model answered. */
  readonly provider?: string;
  readonly model?: string;
  /** The reasoning the provider streamed, as plain text (already redacted). */
  readonly reasoning?: string;
}

export type RecordToolResult = {
  readonly type: 'RecordToolResult';
  readonly messageId: string;
  readonly callId: string;
  readonly toolName: string;
  readonly durationMs: number;
} & ({ readonly status: 'success'; readonly result: string } | { readonly status: 'error'; readonly errorType: string; readonly message: string });

export interface LoadToolGroup {
  readonly type: 'LoadToolGroup';
  readonly groupName: string;
  readonly source: ToolGroupLoadSource;
}

export interface UnloadToolGroup {
  readonly type: 'UnloadToolGroup';
  readonly groupName: string;
}

export interface ClearSession {
  readonly type: 'ClearSession';
  readonly reason: string;
}

export interface RecordModelRequest {
  readonly type: 'RecordModelRequest';
  readonly provider: string;
  readonly model: string;
  readonly toolNames: readonly string[];
  readonly schemaTokens: number;
  /** The model's reasoning setting the request is made with; absent: none (the provider's default). */
  readonly reasoningEffort?: ReasoningEffort;
}

export interface RecordTurnFinished {
  readonly type: 'RecordTurnFinished';
  readonly reason: TurnStopReason;
  readonly detail: string;
  readonly rounds: number;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
}

/**
 * Closes a turn that was cut off (server killed, append failed): an `interrupted` error result
 * for each call left without one, then `TurnFinished{interrupted}`, in one append. Records
 * nothing when that turn is no longer open, so replicas racing to close it write it once.
 */
export interface InterruptTurn {
  readonly type: 'InterruptTurn';
  readonly turnId: string;
  /** Plain words for the user: why the turn is taken as cut off. */
  readonly detail: string;
}

/** Records a summary that replaces, for the model, the messages up to `boundaryMessageId`. */
export interface RecordCompaction {
  readonly type: 'RecordCompaction';
  readonly summary: string;
  readonly boundaryMessageId: string;
  readonly trigger: CompactionTrigger;
  readonly provider: string;
  readonly model: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly summaryCut?: boolean;
}

/** Records a compaction that did not happen; the conversation is left as it is. */
export interface RecordCompactionFailed {
  readonly type: 'RecordCompactionFailed';
  readonly trigger: CompactionTrigger;
  readonly code: string;
  readonly detail: string;
  readonly provider?: string;
  readonly model?: string;
}

/**
 * Runs the last turn again for the last user message (after an error, or for another answer):
 * records `TurnRetried`, which supersedes the messages after it and opens the new turn.
 */
export interface RetryTurn {
  readonly type: 'RetryTurn';
  /** The new turn and who runs it. */
  readonly turnId: string;
  readonly host?: TurnHost;
  /** The user message the client means to retry; refused when it is no longer the last one. */
  readonly messageId?: string;
}

/**
 * Replaces the last user message with `text`: records `UserMessageEdited` (it and everything
 * after it are superseded) and a user `MessageSent` `newMessageId` that opens the new turn.
 */
export interface EditLastUserMessage {
  readonly type: 'EditLastUserMessage';
  /** The message to replace: it must be the last user message since the last clear. */
  readonly messageId: string;
  readonly newMessageId: string;
  readonly text: string;
  readonly turnId: string;
  readonly host?: TurnHost;
}

/** Names the session for the list (trimmed; 1 to SESSION_TITLE_MAX_CHARS characters). */
export interface RenameSession {
  readonly type: 'RenameSession';
  readonly title: string;
}

/** Deletes the session for the user: it leaves the list and refuses new turns; the stream stays. */
export interface ArchiveSession {
  readonly type: 'ArchiveSession';
}

export type SessionCommand =
  | StartSession
  | RecordUserMessage
  | RecordAssistantMessage
  | RecordToolResult
  | LoadToolGroup
  | UnloadToolGroup
  | ClearSession
  | RecordModelRequest
  | RecordTurnFinished
  | InterruptTurn
  | RecordCompaction
  | RecordCompactionFailed
  | RetryTurn
  | EditLastUserMessage
  | RenameSession
  | ArchiveSession;

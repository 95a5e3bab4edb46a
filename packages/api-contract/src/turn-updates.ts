import type { TurnStopReason } from '@oneclaw/core';
import type { Problem } from './problem';
import type { SessionView } from './session-views';

/** Tokens the provider reported for a request, or summed over a turn. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * What a turn reports while it runs: the SSE stream of SendMessage, retry and edit (docs/api.md
 * lists each event). The SSE event name is `type`; its data is the whole update. Every field is
 * already redacted and safe to show.
 */
export type TurnUpdate =
  | { readonly type: 'turn_started'; readonly sessionId: string; readonly turnId: string }
  /** `provider` and `model`: who is asked (and answers) this round. */
  | {
      readonly type: 'model_requested';
      readonly round: number;
      readonly toolNames: readonly string[];
      readonly schemaTokens: number;
      readonly provider: string;
      readonly model: string;
    }
  | { readonly type: 'text_delta'; readonly text: string }
  /** A piece of the model's reasoning ("thinking"), before or between the text. */
  | { readonly type: 'reasoning_delta'; readonly text: string }
  /**
   * The model request failed in a way worth another attempt (429, 5xx, connection); the same
   * request is sent again after `waitMs`. Not recorded as an event (docs/events.md).
   */
  | {
      readonly type: 'provider_retry';
      readonly provider: string;
      readonly model: string;
      readonly attempt: number;
      readonly maxAttempts: number;
      readonly waitMs: number;
      readonly reason: string;
      readonly status?: number;
    }
  | {
      readonly type: 'assistant_message';
      readonly messageId: string;
      readonly text: string;
      readonly toolCalls: number;
      readonly partial?: true;
      /** Who answered, and the reasoning as recorded (redacted, maybe cut); absent when there was none. */
      readonly provider?: string;
      readonly model?: string;
      readonly reasoning?: string;
    }
  | { readonly type: 'tool_call_started'; readonly callId: string; readonly toolName: string; readonly arguments: unknown }
  | {
      readonly type: 'tool_call_finished';
      readonly callId: string;
      readonly toolName: string;
      readonly status: 'success' | 'error';
      readonly durationMs: number;
      readonly errorType?: string;
      /** The start of the result or error message, for a tool call card. */
      readonly preview: string;
    }
  | { readonly type: 'group_loaded'; readonly groupName: string; readonly toolNames: readonly string[] }
  | { readonly type: 'session_cleared' }
  /** The early conversation was replaced by a summary (ConversationCompacted). */
  | { readonly type: 'conversation_compacted'; readonly detail: string }
  /** A compaction was tried and did not happen; the turn goes on with the conversation as it was. */
  | { readonly type: 'compaction_failed'; readonly code: string; readonly detail: string }
  | {
      readonly type: 'turn_finished';
      readonly reason: TurnStopReason;
      readonly detail: string;
      readonly rounds: number;
      readonly usage: TokenUsage;
      readonly revision: number | 'no_stream';
    };

/** How a turn (or `/clear`, `/compact`) ended: the `done` SSE event, and the JSON answer without `session`. */
export interface TurnResult {
  readonly turnId: string;
  readonly reason: TurnStopReason | 'cleared' | 'compacted' | 'not_compacted';
  readonly detail: string;
  readonly rounds: number;
  readonly usage: TokenUsage;
  /** The assistant's last text of the turn. */
  readonly reply: string;
  readonly revision: number | 'no_stream';
  /** `not_compacted` only: why (`nothing_to_compact`, `summary_failed`, `summary_empty`, `not_smaller`). */
  readonly code?: string;
}

/**
 * SendMessage (and retry, edit) answered as JSON, without Accept: text/event-stream. The whole
 * session view comes only when asked with `?include=session` (it grows with the session and
 * costs a read and a serialization per turn); without it the answer is the `TurnResult`.
 */
export interface TurnAnswer extends TurnResult {
  readonly session?: SessionView;
}

/**
 * Every SSE event of a turn by name, with its data: one per `TurnUpdate`, then `done` (the turn's
 * result) or `error` (a problem, when the turn failed after the stream opened).
 */
export type TurnStreamEvents = { readonly [T in TurnUpdate['type']]: Extract<TurnUpdate, { readonly type: T }> } & {
  readonly done: TurnResult;
  readonly error: Problem;
};

export type TurnStreamEventName = keyof TurnStreamEvents;

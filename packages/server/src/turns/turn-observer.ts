import type { TurnStopReason } from '@oneclaw/core';
import type { TokenUsage } from '@oneclaw/model-providers';

/**
 * What a turn reports while it runs: the SSE stream of SendMessage (docs/api.md lists each
 * event). Every field is already redacted and safe to show.
 */
export type TurnUpdate =
  | { readonly type: 'turn_started'; readonly sessionId: string; readonly turnId: string }
  /** `provider` and `model`: who is asked (and answers) this round. */
  | { readonly type: 'model_requested'; readonly round: number; readonly toolNames: readonly string[]; readonly schemaTokens: number; readonly provider: string; readonly model: string }
  | { readonly type: 'text_delta'; readonly text: string }
  /** A piece of the model's reasoning ("thinking"), before or between the text. */
  | { readonly type: 'reasoning_delta'; readonly text: string }
  /**
   * The model request failed in a way worth another attempt (429, 5xx, connection); the same
   * request is sent again after `waitMs`. Not recorded as an event (docs/events.md).
   */
  | { readonly type: 'provider_retry'; readonly provider: string; readonly model: string; readonly attempt: number; readonly maxAttempts: number; readonly waitMs: number; readonly reason: string; readonly status?: number }
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

export type TurnObserver = (update: TurnUpdate) => void;

export const ignoreUpdates: TurnObserver = () => {};

import type { TurnStopReason } from '@oneclaw/core';
import type { TokenUsage } from '../providers/model-provider';

/**
 * What a turn reports while it runs: the SSE stream of SendMessage (docs/api.md lists each
 * event). Every field is already redacted and safe to show.
 */
export type TurnUpdate =
  | { readonly type: 'turn_started'; readonly sessionId: string; readonly turnId: string }
  | { readonly type: 'model_requested'; readonly round: number; readonly toolNames: readonly string[]; readonly schemaTokens: number }
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'assistant_message'; readonly messageId: string; readonly text: string; readonly toolCalls: number; readonly partial?: true }
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

import type { MessageData, ToolCall } from '../events/session-events';
import { sessionErrors, type SessionRuleError } from './session-errors';
import type { ConversationSummary, LastUserMessage, SessionState } from './session-state';

/**
 * Retry and edit (`TurnRetried`, `UserMessageEdited`) supersede the end of the conversation:
 * from the last user message on (edit) or from the message after it (retry). Superseded
 * messages leave `messages` (what the model is sent) and are listed in `supersededMessageIds`;
 * `transcript` (what the view shows) and the stream keep them.
 */

/** The last user message a retry or an edit may act on, or the rule it breaks. */
export function lastUserMessageFor(
  state: SessionState,
  requested: string | undefined,
  nothing: () => SessionRuleError,
): { readonly last: LastUserMessage; readonly message: MessageData } {
  if (state.openTurn) throw sessionErrors.turnInProgress(state.openTurn.turnId);
  const last = state.lastUserMessage;
  const message = last ? state.messages[last.index] : undefined;
  if (!last || !message) throw nothing();
  if (requested !== undefined && requested !== last.messageId) throw sessionErrors.notLastUserMessage(requested, last.messageId);
  return { last, message };
}

/** The ids of the messages from `from` to the end: what a retry or an edit supersedes. */
export function idsFrom(state: SessionState, from: number): string[] {
  return state.messages.slice(from).map((m) => m.messageId);
}

/** The parts of evolve's writable state that superseding changes. */
export interface SupersedeDraft {
  messages: MessageData[];
  supersededMessageIds: string[];
  pendingToolCalls: Map<string, ToolCall>;
  summary: ConversationSummary | null;
  lastInputTokens: number | null;
  lastUserMessage: LastUserMessage | null;
}

/**
 * Takes `messages[from..]` out of the conversation. The model's context goes back to what it
 * was when the last user message was sent wherever the superseded part had changed it: a
 * summary that covers that user message or anything after it is dropped for the one in effect
 * then (a summary of superseded messages would bring them back; the model must also see the
 * message it answers), and the window estimate (`lastInputTokens`) is the one from then, unless
 * a compaction recorded since (covering only earlier messages) still holds, which makes it
 * unknown as after any compaction. Loaded groups are state, not conversation: untouched.
 */
export function supersedeFrom(draft: SupersedeDraft, from: number): void {
  const removed = draft.messages.splice(from);
  for (const message of removed) {
    draft.supersededMessageIds.push(message.messageId);
    if (message.role === 'assistant') for (const call of message.toolCalls) draft.pendingToolCalls.delete(call.callId);
  }
  const last = draft.lastUserMessage;
  const anchor = last ? last.index : from;
  if (draft.summary && draft.summary.keptFrom > anchor) {
    draft.summary = last ? last.summaryBefore : null;
    draft.lastInputTokens = last ? last.lastInputTokensBefore : null;
  } else if (last && draft.summary?.boundaryMessageId === last.summaryBefore?.boundaryMessageId) {
    draft.lastInputTokens = last.lastInputTokensBefore;
  } else {
    draft.lastInputTokens = null;
  }
}

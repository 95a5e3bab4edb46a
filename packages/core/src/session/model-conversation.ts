import type { MessageData } from '../events/session-events';
import type { SessionState } from './session-state';

/** What the model is sent of the conversation: the latest summary (if any) and the messages after it. */
export interface ModelConversation {
  readonly summary: string | null;
  readonly messages: readonly MessageData[];
}

export function modelConversation(state: SessionState): ModelConversation {
  if (!state.summary) return { summary: null, messages: state.messages };
  return { summary: state.summary.text, messages: state.messages.slice(state.summary.keptFrom) };
}

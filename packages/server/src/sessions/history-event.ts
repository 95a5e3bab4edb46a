import type { RecordedEvent } from '@oneclaw/core';

const STREAM_PREFIX = 'session-';

/**
 * What the searches of what was said (search_history's index, the session list's search texts)
 * take from an event: a session's clear, its deletion (archive: the session is gone for the user,
 * so neither search returns it), or a user or assistant message's text (tool results are not
 * searched); null for anything else.
 */
export type HistoryEvent =
  | { readonly type: 'cleared'; readonly sessionId: string }
  | { readonly type: 'archived'; readonly sessionId: string }
  | { readonly type: 'message'; readonly sessionId: string; readonly role: 'user' | 'assistant'; readonly text: string };

export function historyEventOf(event: RecordedEvent): HistoryEvent | null {
  if (!event.streamId.startsWith(STREAM_PREFIX)) return null;
  const sessionId = event.streamId.slice(STREAM_PREFIX.length);
  if (event.type === 'SessionCleared') return { type: 'cleared', sessionId };
  if (event.type === 'SessionArchived') return { type: 'archived', sessionId };
  if (event.type !== 'MessageSent') return null;
  const data = event.data as { role?: unknown; text?: unknown };
  if ((data.role !== 'user' && data.role !== 'assistant') || typeof data.text !== 'string' || data.text.trim() === '') return null;
  return { type: 'message', sessionId, role: data.role, text: data.text };
}

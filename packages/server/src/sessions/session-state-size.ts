import type { SessionState } from '@oneclaw/core';

/** A message object beyond its JSON text: object headers, its slots in `messages` and `transcript`. */
const MESSAGE_OVERHEAD_BYTES = 160;
/** A state without messages: its fields, arrays and maps. */
const STATE_OVERHEAD_BYTES = 1_000;
/** An entry of `supersededMessageIds`, `loadedGroups` or `pendingToolCalls`. */
const ENTRY_BYTES = 200;
/** An entry of `openedTurnIds`: an id of 22 to 36 characters and its slot in the set. */
export const TURN_ID_BYTES = 80;

/** What a state was measured at; given back for the next state of the same session. */
export interface StateSize {
  /** Approximate bytes of the state's messages (the transcript holds every message `messages` does). */
  readonly transcriptBytes: number;
  /** Approximate bytes of the whole state. */
  readonly bytes: number;
}

/**
 * Approximate heap bytes a session's state holds, so the session cache can be bounded by memory
 * rather than by count: one long session holds more than a thousand short ones. Counts each
 * message's JSON length (V8 keeps ASCII strings at a byte a character; the rest at two, so this
 * may undercount non-Latin text up to half) plus a fixed overhead per object. It is a bound for
 * a cache, not an exact figure.
 *
 * Given the same session's previous state and its size, only messages appended since are
 * measured, so a turn of a long session costs what its new messages cost, not the whole
 * conversation: the transcript only grows (evolve pushes), until a clear starts a new one.
 */
export function measureState(state: SessionState, previous?: { readonly state: SessionState; readonly size: StateSize }): StateSize {
  const before = previous?.state.transcript;
  const extends_ = before !== undefined && before.length <= state.transcript.length && (before.length === 0 || state.transcript[before.length - 1] === before[before.length - 1]);
  let transcriptBytes = extends_ ? (previous?.size.transcriptBytes ?? 0) : 0;
  for (let i = extends_ ? before.length : 0; i < state.transcript.length; i++) transcriptBytes += MESSAGE_OVERHEAD_BYTES + JSON.stringify(state.transcript[i]).length;
  const entries = state.supersededMessageIds.length + state.loadedGroups.length + state.pendingToolCalls.size;
  const bytes = STATE_OVERHEAD_BYTES + transcriptBytes + (state.summary?.text.length ?? 0) + entries * ENTRY_BYTES + state.openedTurnIds.size * TURN_ID_BYTES;
  return { transcriptBytes, bytes };
}

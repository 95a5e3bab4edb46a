import type { CallsDropped } from '../events/session-events';

/**
 * The most tool calls taken from one model reply; the calls after them are dropped before the
 * reply is recorded, so they never run and never wait for a result. Models fan out to a few
 * dozen parallel calls at most, so 128 leaves real work alone. The bound is what keeps every
 * append of a round under the store's limit (1 MiB): a turn cut off mid-round is closed by one
 * `InterruptTurn`, whose events (an `interrupted` result per pending call, about 750 bytes each
 * with a 128-character id and a 64-character name) must fit one append: 128 calls take under
 * 100 KB, where 3000 took 1.7 MB, failed with 413 and so failed every later message of the
 * session until /clear. Fewer calls also keep a round's results to what a model can read.
 */
export const MAX_TOOL_CALLS_PER_REPLY = 128;

export interface CappedCalls<T> {
  readonly calls: T[];
  /** Undefined when the reply was within the limit. */
  readonly dropped?: CallsDropped;
}

/** The first `limit` calls of a reply, and how many were dropped after them. */
export function capToolCalls<T>(calls: readonly T[], limit: number = MAX_TOOL_CALLS_PER_REPLY): CappedCalls<T> {
  if (calls.length <= limit) return { calls: [...calls] };
  return { calls: calls.slice(0, limit), dropped: { limit, count: calls.length - limit } };
}

/**
 * Appended to the recorded reply text, so the model reads on its next request (and every one
 * after) that calls it sent are missing, and why, as it reads a cut reply's note.
 */
export function callsDroppedNote(dropped: CallsDropped): string {
  return `[OneClaw: this reply had ${dropped.limit + dropped.count} tool calls, over the limit of ${dropped.limit} per reply; only the first ${dropped.limit} were taken, the other ${dropped.count} were not run and are not in this record. Send the ones still needed in a later reply.]`;
}

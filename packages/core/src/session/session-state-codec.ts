import type { MessageData, ToolCall } from '../events/session-events';
import type { ConversationSummary, LastUserMessage, LoadedGroup, OpenTurn, SessionState } from './session-state';

/**
 * The session projection's snapshot format: an explicit, versioned mapping of `SessionState` to
 * JSON and back (docs/event-store.md, "Snapshots"). Every field is written by name, so a field
 * added to `SessionState` fails the type check here until it is encoded too. The format and
 * evolve's meaning share one version, `SESSION_PROJECTION_VERSION` (evolve.ts).
 *
 * `messages` is a subsequence of `transcript` holding the same objects (a retry or an edit only
 * takes messages out of it), so it is written as ranges of transcript indexes, not twice.
 */
interface EncodedSessionState {
  readonly status: SessionState['status'];
  readonly sessionId: string | null;
  readonly agentId: string | null;
  readonly startedAt: string | null;
  readonly transcript: readonly MessageData[];
  /** [start, end) ranges of `transcript` that make up `messages`, or the messages themselves. */
  readonly messages: { readonly ranges: readonly (readonly [number, number])[] } | { readonly list: readonly MessageData[] };
  readonly supersededMessageIds: readonly string[];
  readonly lastUserMessage: LastUserMessage | null;
  readonly lastTurnId: string | null;
  readonly openedTurnIds: readonly string[];
  readonly loadedGroups: readonly LoadedGroup[];
  readonly pendingToolCalls: readonly (readonly [string, ToolCall])[];
  readonly openTurn: OpenTurn | null;
  readonly summary: ConversationSummary | null;
  readonly lastInputTokens: number | null;
  readonly modelRequestCount: number;
  readonly clearCount: number;
  readonly title: string | null;
  readonly archivedAt: string | null;
  readonly skippedEvents: number;
  readonly eventCount: number;
}

/** The state as JSON text: what a snapshot stores. */
export function encodeSessionState(state: SessionState): string {
  const encoded: EncodedSessionState = {
    status: state.status,
    sessionId: state.sessionId,
    agentId: state.agentId,
    startedAt: state.startedAt,
    transcript: state.transcript,
    messages: messagesOf(state),
    supersededMessageIds: state.supersededMessageIds,
    lastUserMessage: state.lastUserMessage,
    lastTurnId: state.lastTurnId,
    openedTurnIds: [...state.openedTurnIds],
    loadedGroups: state.loadedGroups,
    pendingToolCalls: [...state.pendingToolCalls],
    openTurn: state.openTurn,
    summary: state.summary,
    lastInputTokens: state.lastInputTokens,
    modelRequestCount: state.modelRequestCount,
    clearCount: state.clearCount,
    title: state.title,
    archivedAt: state.archivedAt,
    skippedEvents: state.skippedEvents,
    eventCount: state.eventCount,
  };
  return JSON.stringify(encoded);
}

/**
 * The state back from `encodeSessionState`'s text. Throws `SnapshotDecodeError` on anything that
 * is not its shape (the caller then replays the stream instead). Checks the structure, not each
 * message: the text was written by this code from events already read.
 */
export function decodeSessionState(text: string): SessionState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SnapshotDecodeError(`not JSON (${(error as Error).message})`);
  }
  const e = record(raw, 'state');
  const transcript = array(e.transcript, 'transcript') as MessageData[];
  if (transcript.some((m) => typeof m !== 'object' || m === null || typeof (m as { messageId?: unknown }).messageId !== 'string')) {
    throw new SnapshotDecodeError('transcript holds a message without a messageId');
  }
  const status = e.status;
  if (status !== 'not_started' && status !== 'active') throw new SnapshotDecodeError(`unknown status ${String(status)}`);
  const eventCount = count(e.eventCount, 'eventCount');
  return {
    status,
    sessionId: stringOrNull(e.sessionId, 'sessionId'),
    agentId: stringOrNull(e.agentId, 'agentId'),
    startedAt: stringOrNull(e.startedAt, 'startedAt'),
    messages: decodeMessages(e.messages, transcript),
    transcript,
    supersededMessageIds: array(e.supersededMessageIds, 'supersededMessageIds').map((id) => string(id, 'supersededMessageIds[]')),
    lastUserMessage: objectOrNull(e.lastUserMessage, 'lastUserMessage') as LastUserMessage | null,
    lastTurnId: stringOrNull(e.lastTurnId, 'lastTurnId'),
    openedTurnIds: new Set(array(e.openedTurnIds, 'openedTurnIds').map((id) => string(id, 'openedTurnIds[]'))),
    loadedGroups: array(e.loadedGroups, 'loadedGroups') as LoadedGroup[],
    pendingToolCalls: new Map(
      array(e.pendingToolCalls, 'pendingToolCalls').map((entry) => {
        const [callId, call] = array(entry, 'pendingToolCalls[]');
        return [string(callId, 'pendingToolCalls[].callId'), record(call, 'pendingToolCalls[].call') as unknown as ToolCall];
      }),
    ),
    openTurn: objectOrNull(e.openTurn, 'openTurn') as OpenTurn | null,
    summary: objectOrNull(e.summary, 'summary') as ConversationSummary | null,
    lastInputTokens: e.lastInputTokens === null ? null : finite(e.lastInputTokens, 'lastInputTokens'),
    modelRequestCount: count(e.modelRequestCount, 'modelRequestCount'),
    clearCount: count(e.clearCount, 'clearCount'),
    title: stringOrNull(e.title, 'title'),
    archivedAt: stringOrNull(e.archivedAt, 'archivedAt'),
    skippedEvents: count(e.skippedEvents, 'skippedEvents'),
    eventCount,
  };
}

/** A snapshot's state text that cannot be read back; the reader replays instead. */
export class SnapshotDecodeError extends Error {
  constructor(reason: string) {
    super(`Cannot decode the session snapshot: ${reason}.`);
    this.name = 'SnapshotDecodeError';
  }
}

function messagesOf(state: SessionState): EncodedSessionState['messages'] {
  // Walk both lists: each message must be the transcript's own object, in order.
  const ranges: [number, number][] = [];
  let t = 0;
  for (const message of state.messages) {
    while (t < state.transcript.length && state.transcript[t] !== message) t++;
    if (t === state.transcript.length) return { list: state.messages };
    const last = ranges.at(-1);
    if (last && last[1] === t) last[1] = t + 1;
    else ranges.push([t, t + 1]);
    t++;
  }
  return { ranges };
}

function decodeMessages(value: unknown, transcript: readonly MessageData[]): MessageData[] {
  const encoded = record(value, 'messages');
  if (Array.isArray(encoded.list)) return encoded.list as MessageData[];
  const messages: MessageData[] = [];
  for (const range of array(encoded.ranges, 'messages.ranges')) {
    const [start, end] = array(range, 'messages.ranges[]');
    const from = count(start, 'range start');
    const to = count(end, 'range end');
    if (from >= to || to > transcript.length) throw new SnapshotDecodeError(`message range [${from}, ${to}) is outside the transcript`);
    for (let i = from; i < to; i++) messages.push(transcript[i] as MessageData);
  }
  return messages;
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SnapshotDecodeError(`${what} is not an object`);
  return value as Record<string, unknown>;
}

function array(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new SnapshotDecodeError(`${what} is not a list`);
  return value;
}

function string(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new SnapshotDecodeError(`${what} is not a string`);
  return value;
}

function stringOrNull(value: unknown, what: string): string | null {
  return value === null ? null : string(value, what);
}

function objectOrNull(value: unknown, what: string): object | null {
  return value === null ? null : record(value, what);
}

function count(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new SnapshotDecodeError(`${what} is not a whole number`);
  return value;
}

function finite(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new SnapshotDecodeError(`${what} is not a number`);
  return value;
}

import type { EventEnvelope, EventMetadata, RecordedEvent } from '../events/event-envelope';
import { asSessionEvent } from '../events/session-event-guards';
import type { MessageData, ToolCall, UserMessageData } from '../events/session-events';
import { initialSessionState, isGroupLoaded, type LoadedGroup, type OpenTurn, type SessionState } from './session-state';
import { supersedeFrom } from './supersede';

/**
 * The session projection's version. Bump it whenever the same events would now give another
 * state (a new `SessionState` field, a fold that reads an event differently) or the snapshot
 * format in session-state-codec.ts changes: snapshots of another version are ignored and rebuilt
 * by replay (docs/event-store.md, "Snapshots"). session-projection-version.test.ts fails when
 * this file, session-state.ts, supersede.ts or the codec change, until their new fingerprint is
 * recorded there; that is the moment to decide whether to bump this.
 */
export const SESSION_PROJECTION_VERSION = 2;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A private, writable copy of a state: folds mutate it in place, so replaying n events is O(n). */
interface Draft extends Mutable<Omit<SessionState, 'messages' | 'transcript' | 'supersededMessageIds' | 'loadedGroups' | 'pendingToolCalls'>> {
  messages: MessageData[];
  transcript: MessageData[];
  supersededMessageIds: string[];
  loadedGroups: LoadedGroup[];
  pendingToolCalls: Map<string, ToolCall>;
}

/**
 * Drafts that hold a copy of `openedTurnIds` of their own, added to in place. A draft starts out
 * sharing its state's set and copies it at the first turn it opens: a replay of n turns stays
 * O(n), and a fold that opens no turn (most of them) copies nothing.
 */
const ownsOpenedTurnIds = new WeakSet<Draft>();

function draftOf(state: SessionState): Draft {
  return {
    ...state,
    messages: [...state.messages],
    transcript: [...state.transcript],
    supersededMessageIds: [...state.supersededMessageIds],
    loadedGroups: [...state.loadedGroups],
    pendingToolCalls: new Map(state.pendingToolCalls),
  };
}

/**
 * Applies one event to the state and returns a new state; the given one is left as it was.
 * Total: an event it cannot read (unknown type, malformed data, a newer schema) is counted in
 * `skippedEvents` and otherwise ignored, so a projection never fails on history (EST-17).
 */
export function evolve(state: SessionState, event: EventEnvelope): SessionState {
  const draft = draftOf(state);
  apply(draft, event);
  return draft;
}

/** Folds a stream (or any prefix of it) into a state: replaying events 0..k gives the state after event k. */
export function replay(events: Iterable<EventEnvelope>, from: SessionState = initialSessionState): SessionState {
  const draft = draftOf(from);
  for (const event of events) apply(draft, event);
  return draft;
}

/**
 * Brings a cached state up to date with events read from its stream. Events it already holds
 * (revision below `state.eventCount`) are ignored, so at-least-once delivery or an overlapping
 * re-read cannot apply an event twice (EST-16). A gap means events were missed: that is a bug
 * in the caller, so it throws rather than build a wrong state.
 */
export function catchUp(state: SessionState, events: Iterable<RecordedEvent>): SessionState {
  const draft = draftOf(state);
  for (const event of events) {
    if (event.revision < draft.eventCount) continue;
    if (event.revision > draft.eventCount) {
      throw new Error(`Missed events: state is at revision ${draft.eventCount - 1}, next event has revision ${event.revision}.`);
    }
    apply(draft, event);
  }
  return draft;
}

function apply(draft: Draft, envelope: EventEnvelope): void {
  draft.eventCount++;
  const event = asSessionEvent(envelope);
  if (event === null) {
    draft.skippedEvents++;
    return;
  }
  const at = occurredAtOf(event.metadata);
  if (draft.openTurn && at) draft.openTurn = { ...draft.openTurn, lastEventAt: at };
  switch (event.type) {
    case 'SessionStarted':
      draft.status = 'active';
      draft.sessionId = event.data.sessionId;
      draft.agentId = event.data.agentId;
      draft.startedAt = event.metadata.occurredAt;
      return;
    case 'MessageSent': {
      const message = event.data;
      draft.messages.push(message);
      draft.transcript.push(message);
      // Older streams have no turnId: the turn runner always used the turn id as correlation id.
      if (message.role === 'user') {
        draft.openTurn = openTurnOf(message, event.metadata);
        draft.lastTurnId = draft.openTurn.turnId;
        noteOpenedTurn(draft, draft.openTurn.turnId);
        draft.lastUserMessage = {
          messageId: message.messageId,
          index: draft.messages.length - 1,
          summaryBefore: draft.summary,
          lastInputTokensBefore: draft.lastInputTokens,
        };
      }
      if (message.role === 'assistant') {
        for (const call of message.toolCalls) draft.pendingToolCalls.set(call.callId, call);
        const input = message.usage?.inputTokens;
        if (typeof input === 'number' && Number.isFinite(input)) draft.lastInputTokens = input;
      }
      if (message.role === 'tool') draft.pendingToolCalls.delete(message.callId);
      return;
    }
    case 'ToolGroupLoaded':
      if (isGroupLoaded(draft, event.data.groupName)) return;
      draft.loadedGroups.push({
        groupName: event.data.groupName,
        toolNamesAtLoad: event.data.toolNames,
        source: event.data.source,
        loadedAt: event.metadata.occurredAt,
      });
      return;
    case 'ToolGroupUnloaded':
      draft.loadedGroups = draft.loadedGroups.filter((g) => g.groupName !== event.data.groupName);
      return;
    case 'SessionCleared':
      draft.messages = [];
      draft.transcript = [];
      draft.supersededMessageIds = [];
      draft.lastUserMessage = null;
      draft.loadedGroups = [];
      draft.pendingToolCalls = new Map();
      draft.summary = null;
      draft.lastInputTokens = null;
      draft.clearCount++;
      return;
    case 'ConversationCompacted': {
      // Messages stay (the session view shows them); only what the model is sent changes.
      // Loaded groups and pending calls are not conversation and stay as they are.
      const at = draft.messages.findIndex((m) => m.messageId === event.data.boundaryMessageId);
      if (at < 0) {
        // Cannot happen for a stream decide wrote (the boundary is checked); a bad stream is skipped, not fatal.
        draft.skippedEvents++;
        return;
      }
      draft.summary = { text: event.data.summary, boundaryMessageId: event.data.boundaryMessageId, keptFrom: at + 1 };
      draft.lastInputTokens = null;
      return;
    }
    case 'CompactionFailed':
      draft.lastInputTokens = null;
      return;
    case 'ModelRequested':
      draft.modelRequestCount++;
      if (draft.openTurn) draft.openTurn = { ...draft.openTurn, rounds: draft.openTurn.rounds + 1 };
      return;
    case 'TurnFinished':
      // The conversation already holds everything the turn said; the stop closes the turn.
      draft.openTurn = null;
      return;
    case 'TurnRetried': {
      // The user message stays; what answered it is superseded, and the new turn opens.
      const last = draft.lastUserMessage;
      if (!last || last.messageId !== event.data.messageId) {
        draft.skippedEvents++; // decide only retries the last user message: a bad stream is skipped, not fatal
        return;
      }
      supersedeFrom(draft, last.index + 1);
      draft.openTurn = { turnId: event.data.turnId, startedAt: at ?? '', ...(event.data.host ? { host: event.data.host } : {}), lastEventAt: at ?? '', rounds: 0 };
      draft.lastTurnId = event.data.turnId;
      noteOpenedTurn(draft, event.data.turnId);
      return;
    }
    case 'UserMessageEdited': {
      // The user MessageSent that follows in the same append is the new message and opens the turn.
      const last = draft.lastUserMessage;
      if (!last || last.messageId !== event.data.messageId) {
        draft.skippedEvents++;
        return;
      }
      supersedeFrom(draft, last.index);
      draft.lastUserMessage = null;
      return;
    }
    case 'SessionRenamed':
      draft.title = event.data.title;
      return;
    case 'SessionArchived':
      // The first archive counts; a second (two replicas racing) changes nothing.
      draft.archivedAt ??= occurredAtOf(event.metadata) ?? '';
      return;
  }
}

function noteOpenedTurn(draft: Draft, turnId: string): void {
  if (draft.openedTurnIds.has(turnId)) return;
  if (!ownsOpenedTurnIds.has(draft)) {
    draft.openedTurnIds = new Set(draft.openedTurnIds);
    ownsOpenedTurnIds.add(draft);
  }
  (draft.openedTurnIds as Set<string>).add(turnId);
}

function openTurnOf(message: UserMessageData, metadata: EventMetadata | undefined): OpenTurn {
  const at = occurredAtOf(metadata) ?? '';
  return {
    turnId: message.turnId ?? (typeof metadata?.correlationId === 'string' && metadata.correlationId ? metadata.correlationId : message.messageId),
    startedAt: at,
    ...(message.host ? { host: message.host } : {}),
    lastEventAt: at,
    rounds: 0,
  };
}

/** Metadata is the store's, but evolve is total: a malformed one must not throw. */
function occurredAtOf(metadata: EventMetadata | undefined): string | undefined {
  return typeof metadata?.occurredAt === 'string' ? metadata.occurredAt : undefined;
}

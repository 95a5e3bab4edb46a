import type { EventEnvelope, RecordedEvent } from '../events/event-envelope';
import { asSessionEvent } from '../events/session-event-guards';
import { initialSessionState, isGroupLoaded, type SessionState } from './session-state';

/**
 * Applies one event to the state. Pure and total: an event it cannot read (unknown type,
 * malformed data, a newer schema) is counted in `skippedEvents` and otherwise ignored, so a
 * projection never fails on history (EST-17).
 */
export function evolve(state: SessionState, envelope: EventEnvelope): SessionState {
  const event = asSessionEvent(envelope);
  const counted = { ...state, eventCount: state.eventCount + 1 };
  if (event === null) return { ...counted, skippedEvents: state.skippedEvents + 1 };

  switch (event.type) {
    case 'SessionStarted':
      return {
        ...counted,
        status: 'active',
        sessionId: event.data.sessionId,
        agentId: event.data.agentId,
        startedAt: event.metadata.occurredAt,
      };
    case 'MessageSent': {
      const message = event.data;
      let pending = state.pendingToolCalls;
      if (message.role === 'assistant' && message.toolCalls.length > 0) {
        const next = new Map(pending);
        for (const call of message.toolCalls) next.set(call.callId, call);
        pending = next;
      } else if (message.role === 'tool' && pending.has(message.callId)) {
        const next = new Map(pending);
        next.delete(message.callId);
        pending = next;
      }
      return { ...counted, messages: [...state.messages, message], pendingToolCalls: pending };
    }
    case 'ToolGroupLoaded':
      if (isGroupLoaded(state, event.data.groupName)) return counted;
      return {
        ...counted,
        loadedGroups: [
          ...state.loadedGroups,
          {
            groupName: event.data.groupName,
            toolNamesAtLoad: event.data.toolNames,
            source: event.data.source,
            loadedAt: event.metadata.occurredAt,
          },
        ],
      };
    case 'ToolGroupUnloaded':
      return { ...counted, loadedGroups: state.loadedGroups.filter((g) => g.groupName !== event.data.groupName) };
    case 'SessionCleared':
      return {
        ...counted,
        messages: [],
        loadedGroups: [],
        pendingToolCalls: new Map(),
        clearCount: state.clearCount + 1,
      };
    case 'ModelRequested':
      return { ...counted, modelRequestCount: state.modelRequestCount + 1 };
  }
}

/** Folds a stream (or any prefix of it) into a state: replaying events 0..k gives the state after event k. */
export function replay(events: Iterable<EventEnvelope>, from: SessionState = initialSessionState): SessionState {
  let state = from;
  for (const event of events) state = evolve(state, event);
  return state;
}

/**
 * Brings a cached state up to date with events read from its stream. Events it already holds
 * (revision below `state.eventCount`) are ignored, so at-least-once delivery or an overlapping
 * re-read cannot apply an event twice (EST-16). A gap means events were missed: that is a bug
 * in the caller, so it throws rather than build a wrong state.
 */
export function catchUp(state: SessionState, events: Iterable<RecordedEvent>): SessionState {
  let current = state;
  for (const event of events) {
    if (event.revision < current.eventCount) continue;
    if (event.revision > current.eventCount) {
      throw new Error(`Missed events: state is at revision ${current.eventCount - 1}, next event has revision ${event.revision}.`);
    }
    current = evolve(current, event);
  }
  return current;
}

import type { RecordedEvent } from '../events/event-envelope';
import type { EventStore } from '../event-store/event-store';
import type { SnapshotStore, StoredSnapshot } from '../event-store/snapshot-store';
import { catchUp, SESSION_PROJECTION_VERSION } from './evolve';
import { decodeSessionState, encodeSessionState } from './session-state-codec';
import { initialSessionState, type SessionState } from './session-state';

/** The projection name session snapshots are kept under. */
export const SESSION_PROJECTION = 'session';

/**
 * Why a snapshot was not used (the state was replayed from the start instead):
 * `version` another projection version; `ahead` the stream has no event at its revision (SQL-04:
 * a checkpoint is never trusted ahead of the log); `other_history` the stream holds another event
 * there; `undecodable` its state text cannot be read; `unreadable` the snapshot store failed.
 */
export type SnapshotIgnoredReason = 'version' | 'ahead' | 'other_history' | 'undecodable' | 'unreadable';

/** A session state as loaded, and how. */
export interface LoadedSessionState {
  readonly state: SessionState;
  /** Revision of the last event folded in; 'no_stream' before the first. */
  readonly revision: number | 'no_stream';
  /** Event id of that event (what a snapshot of this state records), or null. */
  readonly lastEventId: string | null;
  /** `snapshot` when it started from one, `replay` when it folded the stream from the start. */
  readonly source: 'snapshot' | 'replay';
  /** Events read and folded (after the snapshot, or all). */
  readonly replayed: number;
  /** Set when a snapshot was found but not used. */
  readonly ignored?: { readonly reason: SnapshotIgnoredReason; readonly detail: string };
}

/** The snapshot to store for `state`, whose last event is `eventId` (at revision `state.eventCount - 1`). */
export function sessionSnapshotOf(streamId: string, state: SessionState, eventId: string, takenAt: Date): StoredSnapshot {
  return {
    streamId,
    projection: SESSION_PROJECTION,
    version: SESSION_PROJECTION_VERSION,
    revision: state.eventCount - 1,
    eventId,
    state: encodeSessionState(state),
    takenAt: takenAt.toISOString(),
  };
}

/**
 * A session's state from its latest snapshot and the events after it, or, when there is no
 * usable snapshot, from all its events. The snapshot's own event is read back too: it is trusted
 * only if the stream still holds that event at that revision, so a snapshot can never put the
 * state ahead of the store (RELIABILITY SQL-04).
 */
export async function loadSessionState(store: EventStore, snapshots: SnapshotStore | undefined, streamId: string): Promise<LoadedSessionState> {
  let ignored: LoadedSessionState['ignored'];
  if (snapshots) {
    let snapshot: StoredSnapshot | undefined;
    try {
      snapshot = await snapshots.read(streamId, SESSION_PROJECTION);
    } catch (error) {
      ignored = { reason: 'unreadable', detail: (error as Error).message };
    }
    if (snapshot) {
      const restored = await fromSnapshot(store, snapshot);
      if ('state' in restored) return restored;
      ignored = restored.ignored;
    }
  }
  const events = await store.readStream(streamId);
  return { ...folded(initialSessionState, events, 'replay'), ...(ignored ? { ignored } : {}) };
}

async function fromSnapshot(store: EventStore, snapshot: StoredSnapshot): Promise<LoadedSessionState | { ignored: NonNullable<LoadedSessionState['ignored']> }> {
  if (snapshot.version !== SESSION_PROJECTION_VERSION) {
    return { ignored: { reason: 'version', detail: `snapshot version ${snapshot.version}, projection version ${SESSION_PROJECTION_VERSION}` } };
  }
  let state: SessionState;
  try {
    state = decodeSessionState(snapshot.state);
  } catch (error) {
    return { ignored: { reason: 'undecodable', detail: (error as Error).message } };
  }
  if (state.eventCount !== snapshot.revision + 1) {
    return { ignored: { reason: 'undecodable', detail: `state holds ${state.eventCount} events, snapshot is at revision ${snapshot.revision}` } };
  }
  const events = await store.readStream(snapshot.streamId, { fromRevision: snapshot.revision });
  const own = events[0];
  if (!own || own.revision !== snapshot.revision) {
    return { ignored: { reason: 'ahead', detail: `snapshot at revision ${snapshot.revision}, the stream has no event there` } };
  }
  if (own.metadata.eventId !== snapshot.eventId) {
    return { ignored: { reason: 'other_history', detail: `snapshot at revision ${snapshot.revision} is of event ${snapshot.eventId}, the stream holds ${own.metadata.eventId}` } };
  }
  // catchUp skips the snapshot's own event (its revision is below the state's event count).
  const result = folded(state, events, 'snapshot');
  return { ...result, replayed: events.length - 1 };
}

function folded(from: SessionState, events: readonly RecordedEvent[], source: LoadedSessionState['source']): LoadedSessionState {
  const last = events.at(-1);
  return {
    state: catchUp(from, events),
    revision: last ? last.revision : 'no_stream',
    lastEventId: last ? last.metadata.eventId : null,
    source,
    replayed: events.length,
  };
}

import { loadSessionState, sessionSnapshotOf, sessionStreamId, type LoadedSessionState, type EventStore, type SessionState, type SnapshotStore } from '@oneclaw/core';

/** Events between two snapshots of a session, unless configured (ONECLAW_SNAPSHOT_EVERY). */
export const DEFAULT_SNAPSHOT_EVERY = 500;

export interface SessionCheckpointsOptions {
  /** The sessions' event store (the one the repository appends to). */
  readonly store: EventStore;
  readonly snapshots: SnapshotStore;
  /**
   * A snapshot is written when a session's stream passes a multiple of this many events, and
   * after a load that replayed at least this many (or found its snapshot unusable).
   */
  readonly every?: number;
  readonly now?: () => Date;
  readonly log?: (level: 'info' | 'warn', message: string) => void;
}

/** What the checkpoints did since the server started (tests and the bench read it; logs say why). */
export interface CheckpointStats {
  /** Loads that started from a snapshot. */
  fromSnapshot: number;
  /** Loads that folded the whole stream (no snapshot, or one ignored). */
  replayed: number;
  /** Snapshots found but not trusted (another version, ahead of the stream, undecodable...). */
  ignored: number;
  written: number;
  /** Writes the store refused: its log did not hold the snapshot's event (SQL-04). */
  refused: number;
  /** Writes that failed (the store's error was logged; nothing else happened). */
  failed: number;
}

/**
 * The session repository's checkpointed projection (docs/event-store.md, "Snapshots"): a cold
 * load starts from the session's latest snapshot and folds only the events after it; snapshots
 * are written off the turn's path (after the current task, never awaited by a command), so a
 * slow or failing snapshot store can cost a replay but never a turn.
 */
export class SessionCheckpoints {
  readonly stats: CheckpointStats = { fromSnapshot: 0, replayed: 0, ignored: 0, written: 0, refused: 0, failed: 0 };
  readonly every: number;
  private readonly store: EventStore;
  private readonly snapshots: SnapshotStore;
  private readonly now: () => Date;
  private readonly log: (level: 'info' | 'warn', message: string) => void;
  /** Per session, the snapshot write in flight: one at a time per session. */
  private readonly writing = new Map<string, Promise<void>>();
  /** Per session, the newest state asked for while a write was in flight: written next (older asks are dropped). */
  private readonly queued = new Map<string, { readonly state: SessionState; readonly lastEventId: string }>();

  constructor(options: SessionCheckpointsOptions) {
    this.store = options.store;
    this.snapshots = options.snapshots;
    this.every = Math.max(1, Math.trunc(options.every ?? DEFAULT_SNAPSHOT_EVERY));
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? (() => undefined);
  }

  /** The session from its snapshot and the events after it, or replayed; rebuilds a snapshot that is missing, stale or unusable. */
  async load(sessionId: string): Promise<LoadedSessionState> {
    const loaded = await loadSessionState(this.store, this.snapshots, sessionStreamId(sessionId));
    this.stats[loaded.source === 'snapshot' ? 'fromSnapshot' : 'replayed']++;
    if (loaded.ignored) {
      this.stats.ignored++;
      this.log(
        'warn',
        `Session ${sessionId}: its snapshot was not used (${loaded.ignored.reason}: ${loaded.ignored.detail}); replayed ${loaded.replayed} events, writing a new one.`,
      );
    }
    if (loaded.lastEventId !== null && (loaded.ignored || loaded.replayed >= this.every)) this.schedule(sessionId, loaded.state, loaded.lastEventId);
    return loaded;
  }

  /** After an append that took the session from `before` to `state`: a snapshot when it passed a multiple of `every`. */
  recorded(sessionId: string, before: number | 'no_stream', state: SessionState, lastEventId: string): void {
    const from = before === 'no_stream' ? 0 : before + 1;
    if (Math.floor(state.eventCount / this.every) > Math.floor(from / this.every)) this.schedule(sessionId, state, lastEventId);
  }

  /** Resolves when no snapshot write is in flight (tests and shutdown wait on it). */
  async idle(): Promise<void> {
    while (this.writing.size > 0) await Promise.all(this.writing.values());
  }

  private schedule(sessionId: string, state: SessionState, lastEventId: string): void {
    if (this.writing.has(sessionId)) {
      this.queued.set(sessionId, { state, lastEventId });
      return;
    }
    // States are immutable, so encoding later, off this task, encodes exactly this one.
    const write = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.snapshots.write(sessionSnapshotOf(sessionStreamId(sessionId), state, lastEventId, this.now())))
      .then(
        (stored) => {
          this.stats[stored ? 'written' : 'refused']++;
          if (!stored) this.log('warn', `Session ${sessionId}: the snapshot at revision ${state.eventCount - 1} was refused (the store does not hold event ${lastEventId} there).`);
        },
        (error: unknown) => {
          this.stats.failed++;
          this.log('warn', `Session ${sessionId}: writing its snapshot failed, the session is replayed instead (${(error as Error).message}).`);
        },
      )
      .finally(() => {
        this.writing.delete(sessionId);
        const next = this.queued.get(sessionId);
        this.queued.delete(sessionId);
        if (next) this.schedule(sessionId, next.state, next.lastEventId);
      });
    this.writing.set(sessionId, write);
  }
}

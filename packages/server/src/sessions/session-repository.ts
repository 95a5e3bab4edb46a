import {
  catchUp,
  decide,
  deterministicIds,
  initialSessionState,
  OneClawError,
  replay,
  sessionErrors,
  sessionStreamId,
  recordCommand,
  type EventStore,
  type ReadStreamOptions,
  type RecordedEvent,
  type SessionCommand,
  type SessionEvent,
  type SessionState,
  type ToolCatalogue,
} from '@oneclaw/core';
import { PerKeyQueue } from '../persistence/per-key-queue';
import type { SessionCheckpoints } from './session-checkpoints';
import { measureState, type StateSize } from './session-state-size';

const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A session as of one revision of its stream. */
export interface SessionSnapshot {
  readonly sessionId: string;
  readonly state: SessionState;
  /** Revision of the last event applied; 'no_stream' before the first. */
  readonly revision: number | 'no_stream';
}

export interface Recorded extends SessionSnapshot {
  /** What this command appended (empty when it changed nothing, e.g. a loaded group). */
  readonly events: readonly SessionEvent[];
}

export interface RecordOptions {
  /** Unique per command; event ids derive from it, so a retried append is idempotent. */
  readonly commandId: string;
  readonly correlationId?: string;
  /** The caller's If-Match: refuse with 412 when the stream has moved past it. */
  readonly expectedRevision?: number;
}

/** One of several commands recorded in one append (`recordAll`). */
export interface StagedCommand {
  readonly command: SessionCommand;
  readonly options: RecordOptions;
}

/** The events `preview` already decided for the staged commands, on this state. */
export interface DecidedOn {
  readonly state: SessionState;
  readonly events: readonly SessionEvent[];
}

const MAX_CACHED_SESSIONS = 1000;
/** Default of ONECLAW_SESSION_CACHE_BYTES: about 20,000 ordinary turns of conversation (docs/memory.md). */
export const DEFAULT_SESSION_CACHE_BYTES = 32 * 1024 * 1024;

export interface SessionRepositoryOptions {
  /**
   * Approximate bytes of session states kept cached (ONECLAW_SESSION_CACHE_BYTES, measured by
   * `measureState`); the least recently used go first. 0 caches nothing.
   */
  readonly maxCachedBytes?: number;
  /** Told each time a session leaves the cache to stay within its bounds (logged at debug). */
  readonly onEvict?: (sessionId: string, evictedBytes: number, cache: SessionCacheStats) => void;
}

/** What the session cache holds now. */
export interface SessionCacheStats {
  readonly sessions: number;
  /** Approximate bytes of the cached states (see `measureState`). */
  readonly bytes: number;
  readonly maxBytes: number;
  /** Sessions dropped to stay within the bounds since the start. */
  readonly evictions: number;
}

/**
 * Reads and writes sessions through the event store. Keeps each session's projection cached by
 * revision: a read fetches only the events after the cached revision (from any writer, any
 * replica) and folds them in, so a long session is not replayed from the start on every append.
 * Every append carries the revision it decided on; on a conflict it catches up and decides again.
 */
export class SessionRepository {
  private readonly cache = new Map<string, SessionSnapshot>();
  /** This server writes one command at a time per session. */
  private readonly writing = new PerKeyQueue();
  /** Size of each cached state, in the same order as `cache`. */
  private readonly sizes = new Map<string, StateSize>();
  private cachedBytes = 0;
  private evictions = 0;
  private readonly maxCachedBytes: number;

  constructor(
    private readonly store: EventStore,
    private readonly catalogue: ToolCatalogue,
    private readonly now: () => Date = () => new Date(),
    /** Snapshots for cold loads (F4); without them a cold load replays the whole stream (KurrentDB, PostgreSQL, tests). */
    private readonly checkpoints?: SessionCheckpoints,
    private readonly options: SessionRepositoryOptions = {},
  ) {
    this.maxCachedBytes = options.maxCachedBytes ?? DEFAULT_SESSION_CACHE_BYTES;
  }

  /** The session now (started or not). */
  async load(sessionId: string): Promise<SessionSnapshot> {
    assertSessionId(sessionId);
    if (this.checkpoints && !this.cache.has(sessionId)) {
      const loaded = await this.checkpoints.load(sessionId);
      const snapshot = { sessionId, state: loaded.state, revision: loaded.revision };
      return loaded.revision === 'no_stream' ? snapshot : this.remember(snapshot);
    }
    const cached = this.cache.get(sessionId) ?? { sessionId, state: initialSessionState, revision: 'no_stream' as const };
    const fromRevision = cached.revision === 'no_stream' ? 0 : cached.revision + 1;
    const fresh = await this.store.readStream(sessionStreamId(sessionId), { fromRevision });
    if (fresh.length === 0) return cached;
    return this.remember({ sessionId, state: catchUp(cached.state, fresh), revision: (fresh.at(-1) as RecordedEvent).revision });
  }

  /** A started session, or `session_not_found`. */
  async get(sessionId: string): Promise<SessionSnapshot> {
    const snapshot = await this.load(sessionId);
    if (snapshot.state.status !== 'active') throw sessionErrors.notFound(sessionId);
    return snapshot;
  }

  /**
   * Decides and appends one command. Writes to one session from this server queue up, so they
   * never conflict with each other; a conflict can only come from another replica, and is
   * retried from fresh state a bounded number of times, then thrown (409).
   */
  record(sessionId: string, command: SessionCommand, options: RecordOptions): Promise<Recorded> {
    return this.recordAll(sessionId, [{ command, options }]);
  }

  /**
   * Decides the commands in order, each on the state the one before leaves, and appends all their
   * events in one append (one transaction, one fsync): all land or none. A conflict re-decides
   * them all on fresh state. The first command's `expectedRevision` is the If-Match. `decided`:
   * the events `preview` gave for these commands, used as they are when the session is still the
   * very state they were decided on (not deciding twice), else decided again.
   */
  recordAll(sessionId: string, steps: readonly StagedCommand[], decided?: DecidedOn): Promise<Recorded> {
    return this.writing.run(sessionId, () => this.recordNow(sessionId, steps, decided));
  }

  /**
   * What `command` would append to `snapshot` and the state after it, without appending (a turn
   * builds its next command on it, then records them together with `recordAll`). The revision
   * is the one the events get if nothing else lands first.
   */
  preview(snapshot: SessionSnapshot, command: SessionCommand, options: RecordOptions): Recorded {
    const events = this.decideOne(command, snapshot.state, options);
    if (events.length === 0) return { ...snapshot, events };
    const base = snapshot.revision === 'no_stream' ? -1 : snapshot.revision;
    return { sessionId: snapshot.sessionId, state: replay(events, snapshot.state), revision: base + events.length, events };
  }

  private decideOne(command: SessionCommand, state: SessionState, options: RecordOptions): SessionEvent[] {
    return decide(command, state, {
      now: this.now,
      newId: deterministicIds(options.commandId),
      catalogue: this.catalogue,
      ...(options.correlationId ? { correlationId: options.correlationId } : {}),
    });
  }

  private async recordNow(sessionId: string, steps: readonly StagedCommand[], decided?: DecidedOn): Promise<Recorded> {
    const options: RecordOptions = steps[0]?.options ?? { commandId: 'none' };
    const { state, revision, events } = await recordCommand<SessionSnapshot, SessionEvent>({
      store: this.store,
      streamId: sessionStreamId(sessionId),
      current: async (attempt) => {
        // This server's writes keep the cache current, so a first attempt decides on it without a
        // read; a write from another replica shows up as a revision conflict, and the retry reads.
        // An If-Match check always reads: it must compare with the store, not with this replica.
        const cached = attempt === 1 && options.expectedRevision === undefined ? this.cache.get(sessionId) : undefined;
        const current = cached ?? (await this.load(sessionId));
        if (options.expectedRevision !== undefined) checkRevision(current.revision, options.expectedRevision);
        return current;
      },
      // Same ids on every attempt: if an earlier attempt did land, the store acknowledges it.
      decide: (current) => {
        if (decided && current.state === decided.state) return [...decided.events];
        if (steps.length === 1) return this.decideOne((steps[0] as StagedCommand).command, current.state, options);
        const all: SessionEvent[] = [];
        let state = current.state;
        for (const step of steps) {
          const events = this.decideOne(step.command, state, step.options);
          if (events.length > 0) state = replay(events, state);
          all.push(...events);
        }
        return all;
      },
      appended: (current, appended, next) => {
        const recorded = this.remember({ sessionId, state: replay(appended, current.state), revision: next });
        this.checkpoints?.recorded(sessionId, current.revision, recorded.state, (appended.at(-1) as SessionEvent).metadata.eventId);
        return recorded;
      },
      reload: () => this.load(sessionId),
    });
    return { sessionId, state, revision, events };
  }

  /** The session's events (all, or the part `options` asks for). */
  async events(sessionId: string, options?: ReadStreamOptions): Promise<readonly RecordedEvent[]> {
    assertSessionId(sessionId);
    return this.store.readStream(sessionStreamId(sessionId), options);
  }

  cacheStats(): SessionCacheStats {
    return { sessions: this.cache.size, bytes: this.cachedBytes, maxBytes: this.maxCachedBytes, evictions: this.evictions };
  }

  /**
   * Caches the snapshot as the most recently used, then drops the least recently used until the
   * cache is within its count and byte bounds. A state larger than the whole byte bound is not
   * kept: every load of that session reads its stream, which keeps memory bounded however long
   * one session grows. A dropped session loses nothing; its next load reads it from the store.
   */
  private remember(snapshot: SessionSnapshot): SessionSnapshot {
    const { sessionId } = snapshot;
    const previous = this.cache.get(sessionId);
    const previousSize = this.sizes.get(sessionId);
    const size = measureState(snapshot.state, previous && previousSize ? { state: previous.state, size: previousSize } : undefined);
    this.forget(sessionId);
    // Measured afresh on each remember (it has no cached predecessor), but its loads replay the
    // whole stream anyway, which costs far more.
    if (size.bytes > this.maxCachedBytes) return snapshot;
    this.cache.set(sessionId, snapshot);
    this.sizes.set(sessionId, size);
    this.cachedBytes += size.bytes;
    while (this.cache.size > MAX_CACHED_SESSIONS || this.cachedBytes > this.maxCachedBytes) {
      const oldest = this.cache.keys().next().value as string;
      const bytes = this.forget(oldest);
      this.evictions += 1;
      this.options.onEvict?.(oldest, bytes, this.cacheStats());
    }
    return snapshot;
  }

  /** Removes a session from the cache; returns the bytes it was counted at. */
  private forget(sessionId: string): number {
    const bytes = this.sizes.get(sessionId)?.bytes ?? 0;
    this.cache.delete(sessionId);
    this.sizes.delete(sessionId);
    this.cachedBytes -= bytes;
    return bytes;
  }
}

export function assertSessionId(sessionId: string): void {
  if (!SESSION_ID.test(sessionId)) {
    throw new OneClawError('invalid_session_id', 'A session id is 1 to 64 letters, digits, "-" or "_".', { sessionId: sessionId.slice(0, 80) });
  }
}

/** If-Match: throws `precondition_failed` unless the session is at the revision the client read. */
export function checkRevision(revision: SessionSnapshot['revision'], expected: number): void {
  if (revision === expected) return;
  throw new OneClawError('precondition_failed', `The session is at revision ${String(revision)}, not ${expected}: it changed since you read it. Read it again and retry.`, {
    revision,
  });
}

import type { EventEnvelope, RecordedEvent } from '../events/event-envelope';
import type { ExpectedRevision, StreamState } from './expected-revision';

export interface AppendOptions {
  /** Required, on purpose: there is no implicit `any` (EST-10). */
  readonly expectedRevision: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event now in the stream: pass it as the next expected revision. */
  readonly nextExpectedRevision: number;
  /** Global position of the last event of this append (read-your-writes: wait for a projection to reach it). */
  readonly position: number;
}

export interface ReadStreamOptions {
  /** First revision to return (inclusive); default 0. */
  readonly fromRevision?: number;
  readonly maxCount?: number;
}

export interface ReadAllOptions {
  /** First global position to return (inclusive); default the beginning. */
  readonly fromPosition?: number;
  /**
   * At most this many events. A page with fewer means the log ends there (`GlobalFollower`
   * stops on it), so an adapter that drops events after its backend filled a page reads on.
   */
  readonly maxCount?: number;
}

/**
 * The event store port. Adapters: in-memory (core), SQLite (server, the default) and KurrentDB.
 * Every adapter passes the contract suite in `@oneclaw/core/testing`.
 *
 * - `append` is atomic: all events of a call are written, or none.
 * - Re-appending the same event ids with the same content is acknowledged without writing
 *   duplicates; the same id with other content is an `IdempotencyConflictError`.
 * - Reading a stream that does not exist gives an empty list.
 */
export interface EventStore {
  append(streamId: string, events: readonly EventEnvelope[], options: AppendOptions): Promise<AppendResult>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<readonly RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<readonly RecordedEvent[]>;
  streamState(streamId: string): Promise<StreamState>;
  close(): Promise<void>;
}

/** Limits every adapter enforces before any I/O. */
export interface EventStoreLimits {
  /** Bytes of serialized data + metadata in one append. Default 1 MiB (EST-20). */
  readonly maxAppendBytes: number;
}

export const DEFAULT_EVENT_STORE_LIMITS: EventStoreLimits = { maxAppendBytes: 1024 * 1024 };

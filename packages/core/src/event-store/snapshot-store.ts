/**
 * A checkpoint of one projection of one stream: the projection's state after the event at
 * `revision`, so a reader can start there and fold only the events after it (docs/event-store.md,
 * "Snapshots"). A snapshot is a cache, never a source of truth: it is not an event, nothing is
 * decided from it that the stream does not also say, and any snapshot may be dropped at any time.
 */
export interface StoredSnapshot {
  readonly streamId: string;
  /** Which projection this is the state of (e.g. `session`). */
  readonly projection: string;
  /** The projection's version when it was taken: a reader ignores a snapshot of another version. */
  readonly version: number;
  /** Revision of the last event folded into `state`. */
  readonly revision: number;
  /**
   * Event id of that event. A reader trusts the snapshot only while the stream still holds this
   * event at `revision`: a snapshot ahead of the stream (a restored backup, another store) or of
   * another history is ignored (RELIABILITY SQL-04).
   */
  readonly eventId: string;
  /** The state, as the projection's own codec wrote it (JSON text). */
  readonly state: string;
  /** ISO-8601, when the snapshot was taken (for operators; never read by a projection). */
  readonly takenAt: string;
}

/**
 * Where snapshots are kept: the latest one per stream and projection. Optional for a deployment:
 * without one, a reader replays the stream from the start. Every adapter passes the contract
 * suite in `@oneclaw/core/testing` (`describeSnapshotStoreContract`).
 */
export interface SnapshotStore {
  /** The latest snapshot of `projection` for the stream, or undefined. */
  read(streamId: string, projection: string): Promise<StoredSnapshot | undefined>;
  /**
   * Keeps `snapshot` as the stream's latest for its projection, replacing the one before (even a
   * later one: a rebuild must be able to replace a snapshot that is ahead of its stream).
   * Answers false when the adapter refused it because its own event log does not hold
   * `eventId` at `revision` (an adapter that shares a database with the events checks this in
   * the same statement, so it never stores a snapshot ahead of the log).
   */
  write(snapshot: StoredSnapshot): Promise<boolean>;
}

import type { SnapshotStore, StoredSnapshot } from './snapshot-store';

/** Snapshots in process memory, for tests and throwaway runs; it keeps frozen copies. */
export class InMemorySnapshotStore implements SnapshotStore {
  private readonly snapshots = new Map<string, StoredSnapshot>();
  /** Writes accepted so far (tests wait on it instead of sleeping). */
  writes = 0;

  async read(streamId: string, projection: string): Promise<StoredSnapshot | undefined> {
    return this.snapshots.get(keyOf(streamId, projection));
  }

  async write(snapshot: StoredSnapshot): Promise<boolean> {
    this.snapshots.set(keyOf(snapshot.streamId, snapshot.projection), Object.freeze({ ...snapshot }));
    this.writes++;
    return true;
  }
}

function keyOf(streamId: string, projection: string): string {
  return `${projection}\0${streamId}`;
}

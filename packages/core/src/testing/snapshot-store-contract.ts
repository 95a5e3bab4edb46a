import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { EventStore } from '../event-store/event-store';
import type { SnapshotStore, StoredSnapshot } from '../event-store/snapshot-store';
import { testEvent } from './test-events';

export interface SnapshotContractSubject {
  readonly snapshots: SnapshotStore;
  /**
   * The event store whose log this snapshot store checks writes against, when it does (an
   * adapter that shares the events' database). Given, the suite also expects it to refuse a
   * snapshot its log does not hold (SQL-04); absent, every write is kept.
   */
  readonly events?: EventStore;
  /** Called after each test (close the stores, delete their files). */
  readonly dispose?: () => Promise<void> | void;
}

/**
 * The snapshot store contract (docs/event-store.md, "Snapshots"): every adapter runs it with a
 * new, empty store per test, e.g. `describeSnapshotStoreContract('SqliteSnapshotStore', ...)`.
 */
export function describeSnapshotStoreContract(name: string, factory: () => Promise<SnapshotContractSubject> | SnapshotContractSubject): void {
  describe(`SnapshotStore contract: ${name}`, () => {
    let subject: SnapshotContractSubject;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.dispose?.();
    });

    /** Appends events `e0..e<revision>` so the log holds `e<revision>` at `revision`. */
    const logUpTo = async (streamId: string, revision: number): Promise<void> => {
      if (!subject.events) return;
      const state = await subject.events.streamState(streamId);
      const from = state === 'no_stream' ? 0 : state + 1;
      const events = Array.from({ length: revision - from + 1 }, (_, i) => testEvent(`${streamId}-e${from + i}`));
      if (events.length > 0) await subject.events.append(streamId, events, { expectedRevision: state });
    };
    const snapshotOf = (streamId: string, revision: number, state: string, projection = 'session'): StoredSnapshot => ({
      streamId,
      projection,
      version: 3,
      revision,
      eventId: `${streamId}-e${revision}`,
      state,
      takenAt: '2026-01-01T00:00:00.000Z',
    });

    it('reads nothing for a stream without a snapshot', async () => {
      expect(await subject.snapshots.read('session-none', 'session')).toBeUndefined();
    });

    it('gives back what was written, the state text byte for byte', async () => {
      await logUpTo('session-a', 4);
      const state = JSON.stringify({ text: 'héllo 👋 "quoted" \\ \n', big: 'x'.repeat(512 * 1024) });
      expect(await subject.snapshots.write(snapshotOf('session-a', 4, state))).toBe(true);
      expect(await subject.snapshots.read('session-a', 'session')).toEqual(snapshotOf('session-a', 4, state));
    });

    it('keeps the latest write per stream and projection, even an older revision (a rebuild replaces a snapshot ahead of its stream)', async () => {
      await logUpTo('session-a', 9);
      await subject.snapshots.write(snapshotOf('session-a', 9, '"nine"'));
      await subject.snapshots.write(snapshotOf('session-a', 3, '"three"'));
      expect((await subject.snapshots.read('session-a', 'session'))?.state).toBe('"three"');
    });

    it('keeps streams and projections apart', async () => {
      await logUpTo('session-a', 1);
      await logUpTo('session-b', 2);
      await subject.snapshots.write(snapshotOf('session-a', 1, '"a"'));
      await subject.snapshots.write(snapshotOf('session-b', 2, '"b"'));
      await subject.snapshots.write(snapshotOf('session-a', 1, '"other"', 'audit'));
      expect((await subject.snapshots.read('session-a', 'session'))?.state).toBe('"a"');
      expect((await subject.snapshots.read('session-b', 'session'))?.state).toBe('"b"');
      expect((await subject.snapshots.read('session-a', 'audit'))?.state).toBe('"other"');
      expect(await subject.snapshots.read('session-b', 'audit')).toBeUndefined();
    });

    it('SQL-04 an adapter that checks its log refuses a snapshot ahead of it or of another event, and keeps the one it had', async () => {
      if (!subject.events) return;
      await logUpTo('session-a', 2);
      await subject.snapshots.write(snapshotOf('session-a', 2, '"two"'));
      expect(await subject.snapshots.write(snapshotOf('session-a', 3, '"ahead"'))).toBe(false);
      expect(await subject.snapshots.write({ ...snapshotOf('session-a', 1, '"forged"'), eventId: 'not-in-the-log' })).toBe(false);
      expect(await subject.snapshots.write(snapshotOf('session-none', 0, '"nothing"'))).toBe(false);
      expect((await subject.snapshots.read('session-a', 'session'))?.state).toBe('"two"');
      expect(await subject.snapshots.read('session-none', 'session')).toBeUndefined();
    });
  });
}

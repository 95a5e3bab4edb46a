import { describe, expect, it } from '@jest/globals';
import { InMemoryEventStore } from '../event-store/in-memory-event-store';
import { InMemorySnapshotStore } from '../event-store/in-memory-snapshot-store';
import type { StoredSnapshot } from '../event-store/snapshot-store';
import { sessionStreamId } from '../events/session-events';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import { testEvent } from '../testing/test-events';
import { replay, SESSION_PROJECTION_VERSION } from './evolve';
import { encodeSessionState } from './session-state-codec';
import { loadSessionState, SESSION_PROJECTION, sessionSnapshotOf } from './session-snapshots';

const STREAM = sessionStreamId('s');

/** A session of `turns` question/answer turns, appended to a new store. */
async function sessionIn(turns: number): Promise<InMemoryEventStore> {
  const s = sessionScenario(testCatalogue()).given({ type: 'StartSession', sessionId: 's', agentId: 'a' });
  for (let t = 0; t < turns; t++) {
    s.record({ type: 'RecordUserMessage', messageId: `u${t}`, text: `question ${t}`, turnId: `t${t}` });
    s.record({ type: 'RecordAssistantMessage', messageId: `a${t}`, text: `answer ${t}`, toolCalls: [] });
    s.record({ type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } });
  }
  const store = new InMemoryEventStore();
  await store.append(STREAM, s.history(), { expectedRevision: 'no_stream' });
  return store;
}

/** A snapshot of the stream's first `count` events, as the repository writes it. */
async function snapshotAfter(store: InMemoryEventStore, count: number): Promise<StoredSnapshot> {
  const events = (await store.readStream(STREAM)).slice(0, count);
  return sessionSnapshotOf(STREAM, replay(events), events.at(-1)?.metadata.eventId as string, new Date(0));
}

describe('loading a session from its snapshot (F4, SQL-04)', () => {
  it('F4 starts from the snapshot and folds only the events after it, to the state a full replay gives', async () => {
    const store = await sessionIn(10);
    const snapshots = new InMemorySnapshotStore();
    await snapshots.write(await snapshotAfter(store, 20));
    const loaded = await loadSessionState(store, snapshots, STREAM);
    expect(loaded).toMatchObject({ source: 'snapshot', replayed: 11, revision: 30 });
    expect(loaded.ignored).toBeUndefined();
    expect(loaded.state).toEqual(replay(await store.readStream(STREAM)));
    expect(loaded.lastEventId).toBe((await store.readStream(STREAM)).at(-1)?.metadata.eventId);
  });

  it('F4 a snapshot of the last event needs no event folded', async () => {
    const store = await sessionIn(3);
    const snapshots = new InMemorySnapshotStore();
    await snapshots.write(await snapshotAfter(store, 10));
    const loaded = await loadSessionState(store, snapshots, STREAM);
    expect(loaded).toMatchObject({ source: 'snapshot', replayed: 0, revision: 9 });
    expect(loaded.state).toEqual(replay(await store.readStream(STREAM)));
  });

  it('replays everything without a snapshot store, or without a snapshot; a stream that does not exist is the initial state', async () => {
    const store = await sessionIn(2);
    const all = replay(await store.readStream(STREAM));
    expect(await loadSessionState(store, undefined, STREAM)).toMatchObject({ source: 'replay', replayed: 7, revision: 6, state: all });
    expect(await loadSessionState(store, new InMemorySnapshotStore(), STREAM)).toMatchObject({ source: 'replay', replayed: 7, state: all });
    expect(await loadSessionState(store, new InMemorySnapshotStore(), sessionStreamId('none'))).toMatchObject({ revision: 'no_stream', lastEventId: null, replayed: 0 });
  });

  describe('SQL-04 a snapshot that cannot be trusted is ignored, with its reason, and the state is replayed', () => {
    // `later`: a snapshot of the same session 30 events on, as a store restored from an older backup meets it.
    const cases: [string, (good: StoredSnapshot, later: StoredSnapshot) => StoredSnapshot, string][] = [
      ['of another projection version', (good) => ({ ...good, version: SESSION_PROJECTION_VERSION + 1 }), 'version'],
      ['of an older projection version', (good) => ({ ...good, version: SESSION_PROJECTION_VERSION - 1 }), 'version'],
      ['ahead of the stream (revision past its end)', (_, later) => later, 'ahead'],
      ['of another history (another event at its revision)', (good) => ({ ...good, eventId: 'from-a-restored-backup' }), 'other_history'],
      ['whose state is not JSON', (good) => ({ ...good, state: '{"status":"act' }), 'undecodable'],
      ['whose state is another shape', (good) => ({ ...good, state: '{"status":"active"}' }), 'undecodable'],
      ['whose state holds another number of events than its revision says', (good) => ({ ...good, revision: 3 }), 'undecodable'],
    ];
    it.each(cases)('a snapshot %s', async (_, spoil, reason) => {
      const store = await sessionIn(4);
      const snapshots = new InMemorySnapshotStore();
      await snapshots.write(spoil(await snapshotAfter(store, 8), await snapshotAfter(await sessionIn(14), 40)));
      const loaded = await loadSessionState(store, snapshots, STREAM);
      expect(loaded).toMatchObject({ source: 'replay', replayed: 13, ignored: { reason } });
      expect(loaded.state).toEqual(replay(await store.readStream(STREAM)));
    });

    it('a snapshot store that fails to read', async () => {
      const store = await sessionIn(1);
      const failing = { read: () => Promise.reject(new Error('disk gone')), write: () => Promise.resolve(true) };
      expect(await loadSessionState(store, failing, STREAM)).toMatchObject({ source: 'replay', ignored: { reason: 'unreadable', detail: 'disk gone' } });
    });
  });

  it('a session snapshot records the projection, its version, the revision and event id of its last event', async () => {
    const store = new InMemoryEventStore();
    await store.append(STREAM, [testEvent('x0'), testEvent('x1')], { expectedRevision: 'no_stream' });
    const state = replay(await store.readStream(STREAM));
    expect(sessionSnapshotOf(STREAM, state, 'x1', new Date(0))).toEqual({
      streamId: STREAM,
      projection: SESSION_PROJECTION,
      version: SESSION_PROJECTION_VERSION,
      revision: 1,
      eventId: 'x1',
      state: encodeSessionState(state),
      takenAt: '1970-01-01T00:00:00.000Z',
    });
  });
});

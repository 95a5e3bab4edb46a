import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { status as grpcStatus } from '@grpc/grpc-js';
import { BACKWARDS, END, FORWARDS, KurrentDBClient, START, binaryEvent, jsonEvent } from '@kurrent/kurrentdb-client';
import { loadSessionState, replay, sessionSnapshotOf, sessionStreamId, type StoredSnapshot } from '@oneclaw/core';
import { describeSnapshotStoreContract, testEvent } from '@oneclaw/core/testing';
import { appendBatches, longSession } from '@oneclaw/core/testing/long-session';
import { startFakeKurrentDb, type FakeKurrentDb } from './testing';
import { KurrentDbEventStore } from './kurrentdb-event-store';
import { DEFAULT_MAX_SNAPSHOT_STATE_BYTES, KurrentDbSnapshotStore, SNAPSHOT_EVENT_TYPE } from './kurrentdb-snapshot-store';
import { readStreamEvents, snapshotStreamName } from './kurrentdb-streams';

// The snapshot contract against the FAKE KurrentDB (a new node per test, and one shared node with
// a stream prefix per test, the isolation the real-node run uses), then what only KurrentDB
// shows: where snapshots live, that `readAll` (the session list's source) never sees them, the
// stream metadata that keeps one per stream, and the error mapping.

describeSnapshotStoreContract('KurrentDbSnapshotStore against a loopback gRPC FAKE KurrentDB', async () => {
  const fake = await startFakeKurrentDb();
  const events = await KurrentDbEventStore.connect(fake.connectionString);
  return {
    snapshots: events.snapshotStore(),
    events,
    dispose: async () => {
      await events.close();
      await fake.close();
    },
  };
});

describe('one shared FAKE KurrentDB, a stream prefix per store', () => {
  let shared: Promise<FakeKurrentDb> | undefined;
  afterAll(async () => (await shared)?.close());
  describeSnapshotStoreContract('KurrentDbSnapshotStore against a loopback gRPC FAKE KurrentDB, with streamPrefix', async () => {
    shared ??= startFakeKurrentDb();
    const events = await KurrentDbEventStore.connect((await shared).connectionString, { streamPrefix: `t${randomUUID()}-` });
    return { snapshots: events.snapshotStore(), events, dispose: () => events.close() };
  });
});

// ---------------------------------------------------------------------------------------------
// On a node, fake or real: each test gets a stream prefix of its own, so the real node's other
// streams are left alone.

interface Node {
  readonly connectionString: string;
  /** Whether the node applies stream metadata (`$maxCount`): a real one does, the fake stores it only. */
  readonly enforcesMetadata: boolean;
  close(): Promise<void>;
}

const snapshotOf = (streamId: string, revision: number, state: string, eventId = `${streamId}-e${revision}`): StoredSnapshot => ({
  streamId,
  projection: 'session',
  version: 1,
  revision,
  eventId,
  state,
  takenAt: '2026-11-27T00:00:00.000Z',
});

function describeOnNode(name: string, startNode: () => Promise<Node>): void {
  describe(`KurrentDbSnapshotStore ${name}`, () => {
    let node: Node;
    let prefix: string;
    let store: KurrentDbEventStore;
    let client: KurrentDBClient;
    beforeEach(async () => {
      node = await startNode();
      prefix = `oneclaw-test-${randomUUID()}-`;
      store = await KurrentDbEventStore.connect(node.connectionString, { streamPrefix: prefix });
      client = KurrentDBClient.connectionString(node.connectionString);
    });
    afterEach(async () => {
      await client.dispose();
      await store.close();
      await node.close();
    });

    it('a snapshot stream is outside what readAll (the session list) reads, in a category of its own; a stream of events can never be named like one', async () => {
      await store.append('session-a', [testEvent('a0'), testEvent('a1')], { expectedRevision: 'no_stream' });
      expect(await store.snapshotStore().write(snapshotOf('session-a', 1, '{"n":1}', 'a1'))).toBe(true);
      await store.append('session-a', [testEvent('a2')], { expectedRevision: 1 });

      // The snapshot is in KurrentDB, in `<prefix>snapshot-session:session-a`...
      const stream = snapshotStreamName(prefix, 'session', 'session-a');
      expect(stream).toBe(`${prefix}snapshot-session:session-a`);
      expect((await readStreamEvents(client, stream, FORWARDS, START, 10)).map((e) => e.type)).toEqual([SNAPSHOT_EVENT_TYPE]);
      // ...but `$all` as the store reads it holds the session's events only, in order.
      const all = await store.readAll();
      expect(all.map((e) => [e.streamId, e.metadata.eventId])).toEqual([
        ['session-a', 'a0'],
        ['session-a', 'a1'],
        ['session-a', 'a2'],
      ]);
      expect((await store.readAll({ fromPosition: (all[1]?.position ?? 0) + 1 })).map((e) => e.metadata.eventId)).toEqual(['a2']);
      // The session stream itself is untouched.
      expect((await store.readStream('session-a')).map((e) => e.metadata.eventId)).toEqual(['a0', 'a1', 'a2']);
      // No stream of events can take a snapshot stream's name, so none is ever read as a session's.
      await expect(store.append('snapshot-session:session-a', [testEvent('x')], { expectedRevision: 'any' })).rejects.toMatchObject({ code: 'invalid_event' });
      await expect(store.append('snapshot-anything', [testEvent('x')], { expectedRevision: 'any' })).rejects.toMatchObject({ code: 'invalid_event' });
    });

    it(`each write is one event: the state gzipped as binary data, the other fields as metadata; the stream's $maxCount is 1, set once per store`, async () => {
      await store.append('session-a', [testEvent('a0'), testEvent('a1'), testEvent('a2')], { expectedRevision: 'no_stream' });
      const state = JSON.stringify({ text: 'héllo "quoted" 👋' });
      for (const revision of [0, 1, 2]) expect(await store.snapshotStore().write(snapshotOf('session-a', revision, state, `a${revision}`))).toBe(true);

      const stream = snapshotStreamName(prefix, 'session', 'session-a');
      const [last] = await readStreamEvents(client, stream, BACKWARDS, END, 1);
      expect(last).toMatchObject({ type: SNAPSHOT_EVENT_TYPE, isJson: false, revision: 2n });
      expect(gunzipSync(last?.data as Uint8Array).toString('utf8')).toBe(state);
      expect(last?.metadata).toEqual({
        streamId: 'session-a',
        projection: 'session',
        version: 1,
        revision: 2,
        eventId: 'a2',
        takenAt: '2026-11-27T00:00:00.000Z',
        encoding: 'gzip',
      });
      expect((await client.getStreamMetadata(stream)).metadata).toMatchObject({ maxCount: 1 });
      // Set once, before the first write of this store; later writes only append.
      expect(await readStreamEvents(client, `$$${stream}`, FORWARDS, START, 10)).toHaveLength(1);
      // A real node serves only the last event of a `$maxCount` 1 stream (scavenging reclaims the
      // rest); the FAKE stores the metadata but does not apply it.
      expect(await readStreamEvents(client, stream, FORWARDS, START, 10)).toHaveLength(node.enforcesMetadata ? 1 : 3);
      expect((await store.snapshotStore().read('session-a', 'session'))?.revision).toBe(2);
    });

    it('setting $maxCount keeps the metadata an operator set on the snapshot stream ($acl, custom keys), and a restarted store that finds $maxCount 1 writes none', async () => {
      await store.append('session-a', [testEvent('a0'), testEvent('a1')], { expectedRevision: 'no_stream' });
      const stream = snapshotStreamName(prefix, 'session', 'session-a');
      const operator = { acl: { readRoles: ['$all'], metaWriteRoles: ['$admins'] }, owner: 'ops-team' };
      await client.setStreamMetadata(stream, operator);
      expect(await store.snapshotStore().write(snapshotOf('session-a', 0, '{}', 'a0'))).toBe(true);
      expect((await client.getStreamMetadata(stream)).metadata).toEqual({ ...operator, maxCount: 1 });

      // A restarted replica: a new store, which has not seen the stream yet.
      const restarted = await KurrentDbEventStore.connect(node.connectionString, { streamPrefix: prefix });
      try {
        expect(await restarted.snapshotStore().write(snapshotOf('session-a', 1, '{}', 'a1'))).toBe(true);
      } finally {
        await restarted.close();
      }
      // The operator's metadata event and ours, nothing more.
      expect(await readStreamEvents(client, `$$${stream}`, FORWARDS, START, 10)).toHaveLength(2);
      expect((await client.getStreamMetadata(stream)).metadata).toEqual({ ...operator, maxCount: 1 });
      expect((await store.snapshotStore().read('session-a', 'session'))?.eventId).toBe('a1');
    });

    it('F4 a session loads from its KurrentDB snapshot and the events after it, through another store, to the state a full replay gives', async () => {
      const stream = sessionStreamId('long');
      const batches = longSession('long', 80);
      await appendBatches(store, stream, batches.slice(0, 12));
      const early = await store.readStream(stream);
      const snapshot = sessionSnapshotOf(stream, replay(early), early.at(-1)?.metadata.eventId as string, new Date());
      expect(await store.snapshotStore().write(snapshot)).toBe(true);
      let revision = early.length - 1;
      for (const batch of batches.slice(12)) revision = (await store.append(stream, batch, { expectedRevision: revision })).nextExpectedRevision;

      const other = await KurrentDbEventStore.connect(node.connectionString, { streamPrefix: prefix });
      try {
        const loaded = await loadSessionState(other, other.snapshotStore(), stream);
        const all = await other.readStream(stream);
        expect(loaded).toMatchObject({ source: 'snapshot', replayed: all.length - early.length, revision: all.length - 1 });
        expect(loaded.state).toEqual(replay(all));
      } finally {
        await other.close();
      }
    }, 30_000);
  });
}

describeOnNode('against a loopback gRPC FAKE KurrentDB', async () => {
  const fake = await startFakeKurrentDb();
  return { connectionString: fake.connectionString, enforcesMetadata: false, close: () => fake.close() };
});

// A real server cannot run here (STACK.md 7c). Where one can: KURRENTDB_CONNECTION_STRING=kurrentdb://127.0.0.1:2113?tls=false
const realConnectionString = process.env.KURRENTDB_CONNECTION_STRING;
if (realConnectionString) {
  describeSnapshotStoreContract('KurrentDbSnapshotStore against a real KurrentDB', async () => {
    const events = await KurrentDbEventStore.connect(realConnectionString, { streamPrefix: `oneclaw-test-${randomUUID()}-` });
    return { snapshots: events.snapshotStore(), events, dispose: () => events.close() };
  });
  describeOnNode('against a real KurrentDB', async () => ({ connectionString: realConnectionString, enforcesMetadata: true, close: async () => undefined }));
} else {
  describe.skip('real KurrentDB: skipped, set KURRENTDB_CONNECTION_STRING to run', () => {
    it('runs the SnapshotStore contract and the snapshot stream checks against a real KurrentDB', () => undefined);
  });
}

// ---------------------------------------------------------------------------------------------

describe('KurrentDbSnapshotStore against a loopback gRPC FAKE KurrentDB: no prefix, errors', () => {
  let fake: FakeKurrentDb;
  let store: KurrentDbEventStore;
  beforeEach(async () => {
    fake = await startFakeKurrentDb();
    store = await KurrentDbEventStore.connect(fake.connectionString);
    await store.append('session-a', [testEvent('a0'), testEvent('a1')], { expectedRevision: 'no_stream' });
  });
  afterEach(async () => {
    await store.close();
    await fake.close();
  });

  const snapshotRecords = () => fake.records().filter((r) => r.type === SNAPSHOT_EVENT_TYPE);

  it('without a stream prefix too, readAll leaves out snapshot streams (and their $$ metadata streams) that are in $all', async () => {
    expect(await store.snapshotStore().write(snapshotOf('session-a', 1, '{}', 'a1'))).toBe(true);
    expect(fake.records().map((r) => r.streamName)).toEqual(expect.arrayContaining(['snapshot-session:session-a', '$$snapshot-session:session-a']));
    expect((await store.readAll()).map((e) => e.streamId)).toEqual(['session-a', 'session-a']);
  });

  it('an outage is storage_unavailable for reads and writes, as for the event store; nothing is written; writes work again after', async () => {
    await fake.stop();
    const snapshots = store.snapshotStore();
    await expect(snapshots.read('session-a', 'session')).rejects.toMatchObject({ code: 'storage_unavailable', details: { reason: 'unavailable' } });
    await expect(snapshots.write(snapshotOf('session-a', 1, '{}', 'a1'))).rejects.toMatchObject({ code: 'storage_unavailable', details: { reason: 'unavailable' } });
    await fake.restart();
    expect(snapshotRecords()).toEqual([]);
    expect(await snapshots.write(snapshotOf('session-a', 1, '{}', 'a1'))).toBe(true);
    expect((await snapshots.read('session-a', 'session'))?.eventId).toBe('a1');
  });

  it('a write whose $maxCount cannot be set fails without appending the snapshot; the next write sets it and appends', async () => {
    fake.failNext('append', grpcStatus.UNAVAILABLE);
    const snapshots = store.snapshotStore();
    await expect(snapshots.write(snapshotOf('session-a', 1, '{}', 'a1'))).rejects.toMatchObject({
      code: 'storage_unavailable',
      details: { reason: 'unavailable', grpcCode: 14, streamId: 'snapshot-session:session-a' },
    });
    expect(snapshotRecords()).toEqual([]);
    expect(fake.records().filter((r) => r.streamName.startsWith('$$'))).toEqual([]);
    expect(await snapshots.write(snapshotOf('session-a', 1, '{}', 'a1'))).toBe(true);
    expect(fake.records().filter((r) => r.streamName === '$$snapshot-session:session-a')).toHaveLength(1);
    expect(snapshotRecords()).toHaveLength(1);
  });

  it("a 10,000-event session's state (1.6 MiB of JSON) fits the node's 1 MiB MaxAppendSize: it is gzipped, and read back byte for byte", async () => {
    const long = replay(longSession('long', 10_000).flat());
    const state = sessionSnapshotOf('session-a', long, 'a1', new Date()).state;
    expect(Buffer.byteLength(state)).toBeGreaterThan(1024 * 1024);
    expect(await store.snapshotStore().write(snapshotOf('session-a', 1, state, 'a1'))).toBe(true);
    expect((await store.snapshotStore().read('session-a', 'session'))?.state).toBe(state);
  });

  it("a state over the node's max append size, even gzipped, is payload_too_large, and nothing is stored", async () => {
    await store.close();
    await fake.close();
    fake = await startFakeKurrentDb({ maxAppendSize: 2048 });
    store = await KurrentDbEventStore.connect(fake.connectionString);
    await store.append('session-a', [testEvent('a0')], { expectedRevision: 'no_stream' });
    const error = store.snapshotStore().write(snapshotOf('session-a', 0, JSON.stringify(randomBytes(4096).toString('base64')), 'a0'));
    await expect(error).rejects.toMatchObject({ code: 'payload_too_large', limit: 2048, streamId: 'snapshot-session:session-a' });
    expect(await store.snapshotStore().read('session-a', 'session')).toBeUndefined();
  });

  it('a last event that is not a snapshot of ours, or does not unzip, is storage_corrupt (the loader then replays); the next write puts a snapshot after it', async () => {
    const snapshots = store.snapshotStore();
    const client = KurrentDBClient.connectionString(fake.connectionString);
    try {
      await client.appendToStream('snapshot-session:session-a', jsonEvent({ type: 'SomethingElse', data: { state: '{}' } }));
      await expect(snapshots.read('session-a', 'session')).rejects.toMatchObject({ code: 'storage_corrupt', details: { reason: 'foreign_snapshot_event' } });
      const fields = { streamId: 'session-a', projection: 'session', version: 1, revision: 1, eventId: 'a1', takenAt: 'now', encoding: 'gzip' };
      await client.appendToStream('snapshot-session:session-a', binaryEvent({ type: SNAPSHOT_EVENT_TYPE, data: Buffer.from('{}'), metadata: fields }));
    } finally {
      await client.dispose();
    }
    await expect(snapshots.read('session-a', 'session')).rejects.toMatchObject({ code: 'storage_corrupt', details: { reason: 'foreign_snapshot_event' } });
    const loaded = await loadSessionState(store, snapshots, 'session-a');
    expect(loaded).toMatchObject({ source: 'replay', ignored: { reason: 'unreadable' } });
    expect(await snapshots.write(snapshotOf('session-a', 1, '{}', 'a1'))).toBe(true);
    expect((await snapshots.read('session-a', 'session'))?.eventId).toBe('a1');
  });

  it('a snapshot that unzips to more than 64 MiB (a gzip bomb) is storage_corrupt and the loader replays; maxStateBytes sets the bound', async () => {
    const fields = { streamId: 'session-a', projection: 'session', version: 1, revision: 1, eventId: 'a1', takenAt: 'now', encoding: 'gzip' };
    const bomb = gzipSync(Buffer.alloc(DEFAULT_MAX_SNAPSHOT_STATE_BYTES + 1), { level: 1 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const client = KurrentDBClient.connectionString(fake.connectionString);
    try {
      await client.appendToStream('snapshot-session:session-a', binaryEvent({ type: SNAPSHOT_EVENT_TYPE, data: bomb, metadata: fields }));
      await expect(store.snapshotStore().read('session-a', 'session')).rejects.toMatchObject({
        code: 'storage_corrupt',
        details: { reason: 'snapshot_too_large', maxStateBytes: 64 * 1024 * 1024 },
      });
      expect(await loadSessionState(store, store.snapshotStore(), 'session-a')).toMatchObject({ source: 'replay', ignored: { reason: 'unreadable' } });

      // The bound itself, lowered: a state of exactly maxStateBytes is read, one byte more is not.
      const small = new KurrentDbSnapshotStore(client, '', store, () => undefined, { maxStateBytes: 1024 });
      expect(await small.write(snapshotOf('session-a', 1, 'x'.repeat(1024), 'a1'))).toBe(true);
      expect((await small.read('session-a', 'session'))?.state).toHaveLength(1024);
      expect(await small.write(snapshotOf('session-a', 1, 'x'.repeat(1025), 'a1'))).toBe(true);
      await expect(small.read('session-a', 'session')).rejects.toMatchObject({ code: 'storage_corrupt', details: { reason: 'snapshot_too_large', maxStateBytes: 1024 } });
      expect((await store.snapshotStore().read('session-a', 'session'))?.state).toHaveLength(1025);
    } finally {
      await client.dispose();
    }
  });

  it('the check reads the session stream only: a snapshot of a revision the stream lacks, or of another event, is refused before any append', async () => {
    const appends = fake.calls.append;
    const snapshots = store.snapshotStore();
    expect(await snapshots.write(snapshotOf('session-a', 2, '{}', 'a2'))).toBe(false);
    expect(await snapshots.write(snapshotOf('session-a', 1, '{}', 'a0'))).toBe(false);
    expect(await snapshots.write(snapshotOf('session-a', -1, '{}', 'a0'))).toBe(false);
    expect(fake.calls.append).toBe(appends);
  });

  it('after the event store closes, its snapshot store refuses reads and writes with storage_unavailable', async () => {
    const snapshots = store.snapshotStore();
    await store.close();
    await expect(snapshots.read('session-a', 'session')).rejects.toMatchObject({ code: 'storage_unavailable' });
    await expect(snapshots.write(snapshotOf('session-a', 1, '{}', 'a1'))).rejects.toMatchObject({ code: 'storage_unavailable' });
  });
});

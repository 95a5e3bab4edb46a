import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { status as grpcStatus } from '@grpc/grpc-js';
import {
  FORWARDS,
  KurrentDBClient,
  START,
  StreamDeletedError as KurrentStreamDeletedError,
  UnavailableError,
  WrongExpectedVersionError,
  jsonEvent,
  type RecordedEvent as KurrentRecordedEvent,
} from '@kurrent/kurrentdb-client';
import { PayloadTooLargeError, StorageUnavailableError, StreamDeletedError, StreamRevisionConflictError } from '@oneclaw/core';
import { describeEventStoreContract, testEvent } from '@oneclaw/core/testing';
import { startFakeKurrentDb, type FakeKurrentDb } from './testing';
import { KurrentDbConfigError, toStoreError } from './kurrentdb-errors';
import { kurrentEventId, ONECLAW_EVENT_ID_NAMESPACE, uuidV5 } from './kurrentdb-event-ids';
import { KurrentDbEventStore, type KurrentDbEventStoreOptions } from './kurrentdb-event-store';

// ---------------------------------------------------------------------------------------------
// The contract suite, against the fake (a new node per test), and once more with the isolation
// the real-server run uses: one shared node, a new stream prefix per test.

function onFreshFake(options: KurrentDbEventStoreOptions = {}) {
  return async () => {
    const fake = await startFakeKurrentDb();
    const store = await KurrentDbEventStore.connect(fake.connectionString, options);
    return {
      store,
      dispose: async () => {
        await store.close();
        await fake.close();
      },
    };
  };
}

describeEventStoreContract('KurrentDbEventStore against a loopback gRPC fake KurrentDB', onFreshFake());
describeEventStoreContract('KurrentDbEventStore against a loopback gRPC fake KurrentDB, maxAppendBytes 4096', onFreshFake({ maxAppendBytes: 4096 }), {
  maxAppendBytes: 4096,
});

describe('one shared fake KurrentDB, a stream prefix per store', () => {
  let shared: Promise<FakeKurrentDb> | undefined;
  afterAll(async () => (await shared)?.close());
  describeEventStoreContract('KurrentDbEventStore against a loopback gRPC fake KurrentDB, with streamPrefix', async () => {
    shared ??= startFakeKurrentDb();
    const store = await KurrentDbEventStore.connect((await shared).connectionString, { streamPrefix: `t${randomUUID()}-` });
    return { store, dispose: () => store.close() };
  });
});

// A real server cannot run here (STACK.md 7c). Where one can: KURRENTDB_CONNECTION_STRING=kurrentdb://127.0.0.1:2113?tls=false
const realConnectionString = process.env.KURRENTDB_CONNECTION_STRING;
if (realConnectionString) {
  // A real store cannot be emptied per test: each test gets its own stream prefix instead.
  describeEventStoreContract('KurrentDbEventStore against a real KurrentDB', async () => {
    const store = await KurrentDbEventStore.connect(realConnectionString, { streamPrefix: `oneclaw-test-${randomUUID()}-` });
    return { store, dispose: () => store.close() };
  });
} else {
  describe.skip('real KurrentDB: skipped, set KURRENTDB_CONNECTION_STRING to run', () => {
    it('runs the EventStore contract against a real KurrentDB', () => undefined);
  });
}

// ---------------------------------------------------------------------------------------------

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string; details?: Record<string, unknown> };
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** What a plain client, not our adapter, sees in KurrentDB. */
async function rawRead(connectionString: string, stream: string): Promise<KurrentRecordedEvent[]> {
  const client = KurrentDBClient.connectionString(connectionString);
  const out: KurrentRecordedEvent[] = [];
  try {
    for await (const resolved of client.readStream(stream, { direction: FORWARDS, fromRevision: START })) {
      if (resolved.event) out.push(resolved.event);
    }
  } finally {
    await client.dispose();
  }
  return out;
}

/** Runs `use` on a plain client (not our adapter) of the node, then disposes of it. */
async function withClient<T>(connectionString: string, use: (client: KurrentDBClient) => Promise<T>): Promise<T> {
  const client = KurrentDBClient.connectionString(connectionString);
  try {
    return await use(client);
  } finally {
    await client.dispose();
  }
}

const userRecords = (fake: FakeKurrentDb) => fake.records().filter((r) => !r.type.startsWith('$'));
/** What the log holds for one stream, tombstone included, as `type@revision`. */
const streamRecords = (fake: FakeKurrentDb, stream: string) =>
  fake
    .records()
    .filter((r) => r.streamName === stream)
    .map((r) => `${r.type}@${r.revision}`);
/** KurrentDB's `EventNumber.DeletedStream` (long.MaxValue): the revision of a tombstone record. */
const DELETED_STREAM_REVISION = 2n ** 63n - 1n;

describe('KurrentDbEventStore against a loopback gRPC fake KurrentDB: mappings', () => {
  let fake: FakeKurrentDb;
  const stores: KurrentDbEventStore[] = [];
  const open = async (options?: KurrentDbEventStoreOptions): Promise<KurrentDbEventStore> => {
    const store = await KurrentDbEventStore.connect(fake.connectionString, options);
    stores.push(store);
    return store;
  };
  beforeEach(async () => {
    fake = await startFakeKurrentDb();
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await fake.close();
  });

  it("a stale expected revision is the node's wrong-expected-version, mapped to StreamRevisionConflictError", async () => {
    const store = await open();
    await store.append('session-A', [testEvent('e1'), testEvent('e2')], { expectedRevision: 'no_stream' });
    const appendsBefore = fake.calls.append;
    const error = await failure(store.append('session-A', [testEvent('late')], { expectedRevision: 0 }));
    expect(error).toBeInstanceOf(StreamRevisionConflictError);
    expect(error).toMatchObject({ code: 'stream_revision_conflict', streamId: 'session-A', expected: 0, actual: 1 });
    expect(error.message).toContain('Re-read the stream');
    // The node decided, not a pre-check in the adapter.
    expect(fake.calls.append).toBe(appendsBefore + 1);
    expect(userRecords(fake).map((r) => r.revision)).toEqual([0n, 1n]);
  });

  it('a UUID event id is the KurrentDB id; any other id becomes a deterministic UUID v5; reads return our ids', async () => {
    // RFC 9562's own example: "www.example.com" in the DNS namespace.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    const store = await open();
    const uuid = randomUUID();
    const upper = randomUUID().toUpperCase();
    await store.append('session-A', [testEvent(uuid), testEvent('s1-c0:0'), testEvent(upper)], { expectedRevision: 'no_stream' });

    const raw = await rawRead(fake.connectionString, 'session-A');
    expect(raw.map((e) => e.id)).toEqual([uuid, uuidV5('s1-c0:0', ONECLAW_EVENT_ID_NAMESPACE), uuidV5(upper, ONECLAW_EVENT_ID_NAMESPACE)]);
    expect(kurrentEventId('s1-c0:0')).toBe(raw[1]?.id);
    // Our envelope metadata, original id included, is the KurrentDB metadata.
    expect(raw[1]?.metadata).toEqual(testEvent('s1-c0:0').metadata);
    expect(raw.map((e) => e.isJson)).toEqual([true, true, true]);

    const read = await store.readStream('session-A');
    expect(read.map((e) => e.metadata.eventId)).toEqual([uuid, 's1-c0:0', upper]);
    expect((await store.readAll()).map((e) => e.metadata.eventId)).toEqual([uuid, 's1-c0:0', upper]);
  });

  it('KurrentDB itself also sees a retry as the same events: the derived ids are stable across stores', async () => {
    const first = await open();
    const second = await open();
    const batch = [testEvent('c7:0'), testEvent('c7:1')];
    const written = await first.append('session-A', batch, { expectedRevision: 'no_stream' });
    // Another replica (another client, another process) retrying the same command.
    expect(await second.append('session-A', batch, { expectedRevision: 'no_stream' })).toEqual(written);
    expect(userRecords(fake)).toHaveLength(2);
  });

  it('an outage is storage_unavailable on every call; nothing is half-written; the same append succeeds after', async () => {
    const store = await open();
    const first = await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    await fake.stop();

    const batch = [testEvent('e2'), testEvent('e3')];
    const error = await failure(store.append('session-A', batch, { expectedRevision: 0 }));
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error).toMatchObject({ code: 'storage_unavailable', details: { reason: 'unavailable', streamId: 'session-A' } });
    expect(error.message).toContain('unavailable');
    for (const call of [store.readStream('session-A'), store.readAll(), store.streamState('session-A')]) {
      expect(await failure(call)).toMatchObject({ code: 'storage_unavailable', details: { reason: 'unavailable' } });
    }

    await fake.restart();
    expect(userRecords(fake).map((r) => r.revision)).toEqual([0n]);
    expect(await store.streamState('session-A')).toBe(0);
    const retried = await store.append('session-A', batch, { expectedRevision: 0 });
    expect(retried.nextExpectedRevision).toBe(2);
    expect(await store.append('session-A', batch, { expectedRevision: 0 })).toEqual(retried);
    expect((await store.readStream('session-A')).map((e) => e.metadata.eventId)).toEqual(['e1', 'e2', 'e3']);
    expect((await store.readAll())[0]?.position).toBe(first.position);
  });

  it('an append the node answers with gRPC status 14 is storage_unavailable and writes nothing', async () => {
    const store = await open();
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    fake.failNext('append', grpcStatus.UNAVAILABLE);
    const error = await failure(store.append('session-A', [testEvent('e2')], { expectedRevision: 0 }));
    expect(error).toMatchObject({ code: 'storage_unavailable', details: { reason: 'unavailable', grpcCode: 14 } });
    expect(userRecords(fake)).toHaveLength(1);
  });

  it('EST-18 a deadline is storage_unavailable (reason deadline_exceeded) with an unknown outcome, never a partial write; retrying with the same ids does not duplicate', async () => {
    const store = await open({ appendDeadlineMs: 100 });
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    // The node commits long after the client gave up, as a slow real node can.
    fake.delayNextAppend(800);
    const batch = [testEvent('e2'), testEvent('e3')];
    const error = await failure(store.append('session-A', batch, { expectedRevision: 0 }));
    expect(error).toMatchObject({ code: 'storage_unavailable', details: { reason: 'deadline_exceeded' } });
    expect(error.message).toContain('may or may not have been written');
    await fake.whenIdle();
    // All or nothing: the late commit wrote the whole batch (a node that gave up would write none).
    expect([['e1'], ['e1', 'e2', 'e3']]).toContainEqual((await store.readStream('session-A')).map((e) => e.metadata.eventId));
    const retried = await store.append('session-A', batch, { expectedRevision: 0 });
    const events = await store.readStream('session-A');
    expect(events.map((e) => e.metadata.eventId)).toEqual(['e1', 'e2', 'e3']);
    expect(retried).toEqual({ nextExpectedRevision: 2, position: events[2]?.position });
  });

  it("raw grpc-js errors (code 14, code 4) and the bridge's UnavailableError all map to storage_unavailable", () => {
    const raw14 = Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });
    const raw4 = Object.assign(new Error('4 DEADLINE_EXCEEDED: Deadline exceeded'), { code: 4 });
    expect(toStoreError(raw14, 'append to', { appendBytes: 1 })).toMatchObject({
      code: 'storage_unavailable',
      details: { reason: 'unavailable', grpcCode: 14 },
    });
    expect(toStoreError(raw4, 'append to', { appendBytes: 1 })).toMatchObject({
      code: 'storage_unavailable',
      details: { reason: 'deadline_exceeded' },
    });
    expect(toStoreError(new UnavailableError(undefined, 'UnavailableError'), 'read')).toMatchObject({
      code: 'storage_unavailable',
      details: { reason: 'unavailable' },
    });
    expect(toStoreError(new Error('Failed to discover after 10 attempts.'), 'read')).toMatchObject({ code: 'storage_unavailable' });
    const bug = new TypeError('not a storage problem');
    expect(toStoreError(bug, 'read')).toBe(bug);
  });

  it("a node's max-append-size refusal is payload_too_large, like the adapter's own limit", async () => {
    await fake.close();
    fake = await startFakeKurrentDb({ maxAppendSize: 2048 });
    const store = await open();
    const error = await failure(store.append('session-A', [testEvent('e1', { big: 'x'.repeat(4096) })], { expectedRevision: 'no_stream' }));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error).toMatchObject({ code: 'payload_too_large', limit: 2048 });
    expect(await store.streamState('session-A')).toBe('no_stream');
  });

  it('limits, serialization and names are checked before any I/O', async () => {
    const store = await open({ maxAppendBytes: 1024 });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const calls = { ...fake.calls };
    const attempts: [Promise<unknown>, string][] = [
      [store.append('session-A', [testEvent('e1', { big: 'x'.repeat(2000) })], { expectedRevision: 'no_stream' }), 'payload_too_large'],
      [store.append('session-A', [testEvent('e1', circular)], { expectedRevision: 'no_stream' }), 'event_not_serializable'],
      [store.append('session-A', [testEvent('e1', {}, '$SystemLooking')], { expectedRevision: 'no_stream' }), 'invalid_event'],
      [store.append('$session-A', [testEvent('e1')], { expectedRevision: 'no_stream' }), 'invalid_event'],
      // Snapshot streams' names (kurrentdb-snapshot-store.ts).
      [store.append('snapshot-session:session-A', [testEvent('e1')], { expectedRevision: 'no_stream' }), 'invalid_event'],
      [store.append('session-A', [testEvent('e1')], {} as never), 'invalid_expected_revision'],
    ];
    for (const [attempt, code] of attempts) expect(await failure(attempt)).toMatchObject({ code });
    expect(fake.calls).toEqual(calls);
  });

  it('readAll leaves out system events; positions are KurrentDB commit positions (offsets, not counters)', async () => {
    const store = await open();
    expect(fake.records().some((r) => r.type.startsWith('$'))).toBe(true);
    await store.append('session-A', [testEvent('a0')], { expectedRevision: 'no_stream' });
    await store.append('session-B', [testEvent('b0'), testEvent('b1')], { expectedRevision: 'no_stream' });
    const all = await store.readAll();
    expect(all.map((e) => e.metadata.eventId)).toEqual(['a0', 'b0', 'b1']);
    const logged = userRecords(fake);
    expect(all.map((e) => e.position)).toEqual(logged.map((r) => Number(r.position)));
    expect((all[1]?.position ?? 0) - (all[0]?.position ?? 0)).toBeGreaterThan(1);
    expect((await store.readStream('session-B')).map((e) => e.position)).toEqual(all.slice(1).map((e) => e.position));
  });

  it('readAll leaves out a $-typed event inside a stream of ours (a link another application wrote), also when it scans from an offset', async () => {
    const store = await open();
    await store.append('session-A', [testEvent('a0')], { expectedRevision: 'no_stream' });
    const client = KurrentDBClient.connectionString(fake.connectionString);
    try {
      await client.appendToStream('session-A', jsonEvent({ type: '$>', data: { link: '0@elsewhere' } }));
    } finally {
      await client.dispose();
    }
    await store.append('session-A', [testEvent('a2')], { expectedRevision: 1 });
    const all = await store.readAll();
    expect(all.map((e) => e.metadata.eventId)).toEqual(['a0', 'a2']);
    expect((await store.readAll({ fromPosition: (all[0]?.position ?? 0) + 1 })).map((e) => e.metadata.eventId)).toEqual(['a2']);
    expect((await store.readStream('session-A')).map((e) => e.type)).toEqual(['TestEvent', '$>', 'TestEvent']);
  });

  it("readAll reads on past $-typed events that fill the node's page: a page is short only at the end of the log, and following the pages skips nothing", async () => {
    const store = await open();
    await store.append('session-A', [testEvent('a0')], { expectedRevision: 'no_stream' });
    // Links another application wrote into our streams: they pass the node's stream-name filter.
    const links = (n: number) => Array.from({ length: n }, (_, i) => jsonEvent({ type: '$>', data: { link: `${i}@elsewhere` } }));
    const client = KurrentDBClient.connectionString(fake.connectionString);
    try {
      await client.appendToStream('session-A', links(7));
      await store.append('session-A', [testEvent('a1'), testEvent('a2')], { expectedRevision: 7 });
      await client.appendToStream('session-B', links(5));
      await store.append('session-B', [testEvent('b0')], { expectedRevision: 4 });
    } finally {
      await client.dispose();
    }
    const ids = (events: readonly { metadata: { eventId: string } }[]) => events.map((e) => e.metadata.eventId);

    // The node's first pages of 2 hold a0 and links only; the store reads on until 2 are left.
    expect(ids(await store.readAll({ maxCount: 2 }))).toEqual(['a0', 'a1']);
    const [a0] = await store.readAll({ maxCount: 1 });
    // From a0's position (what GlobalFollower does), with nothing but links between a0 and a1.
    expect(ids(await store.readAll({ fromPosition: a0?.position, maxCount: 2 }))).toEqual(['a0', 'a1']);
    // From an offset inside a0 (the backwards scan): a1 and a2, then b0 after five more links.
    expect(ids(await store.readAll({ fromPosition: (a0?.position ?? 0) + 1, maxCount: 3 }))).toEqual(['a1', 'a2', 'b0']);

    // Followed as GlobalFollower follows: from the last position applied, until a page is short.
    const followed: string[] = [];
    let last = -1;
    for (let reads = 0; reads < 10; reads++) {
      const page = await store.readAll({ fromPosition: Math.max(0, last), maxCount: 3 });
      const fresh = page.filter((e) => e.position > last);
      followed.push(...ids(fresh));
      if (page.length < 3) break;
      last = fresh.at(-1)?.position ?? last;
    }
    expect(followed).toEqual(['a0', 'a1', 'a2', 'b0']);
  });

  it('readAll from an offset inside a record (last position + 1), which KurrentDB refuses, reads from the next event', async () => {
    const store = await open();
    await store.append('session-A', [testEvent('a0'), testEvent('a1')], { expectedRevision: 'no_stream' });
    await store.append('session-B', [testEvent('b0')], { expectedRevision: 'no_stream' });
    const [first, second] = await store.readAll();
    const readsBefore = fake.calls.read;
    const rest = await store.readAll({ fromPosition: (first?.position ?? 0) + 1 });
    expect(rest.map((e) => e.metadata.eventId)).toEqual(['a1', 'b0']);
    // The node refused the offset first, then the store scanned back from the end.
    expect(fake.calls.read).toBeGreaterThan(readsBefore + 1);
    expect((await store.readAll({ fromPosition: (first?.position ?? 0) + 1, maxCount: 1 })).map((e) => e.metadata.eventId)).toEqual(['a1']);
    expect(await store.readAll({ fromPosition: (second?.position ?? 0) * 1000 })).toEqual([]);
  });

  it('EST-19 an append to a tombstoned session stream is stream_deleted (410, never retried) that says to start a new session; nothing is written', async () => {
    const store = await open();
    await store.append('session-A', [testEvent('e1'), testEvent('e2')], { expectedRevision: 'no_stream' });
    // A plain client (an operator, another application) hard-deletes the session's stream.
    const { position } = await withClient(fake.connectionString, (client) => client.tombstoneStream('session-A', { expectedRevision: 1n }));
    expect(streamRecords(fake, 'session-A')).toEqual(['TestEvent@0', 'TestEvent@1', `$streamDeleted@${DELETED_STREAM_REVISION}`]);
    expect(position?.commit).toBe(fake.records().at(-1)?.position);
    const logged = fake.records().length;

    // Whatever the expected revision: a retry, the right one, or one that would start the stream anew.
    for (const expectedRevision of [1, 'any', 'no_stream', 'stream_exists'] as const) {
      const error = await failure(store.append('session-A', [testEvent('e3')], { expectedRevision }));
      expect(error).toBeInstanceOf(StreamDeletedError);
      expect(error).toMatchObject({ code: 'stream_deleted', details: { reason: 'stream_deleted', kurrentError: 'stream-deleted', streamId: 'session-A' } });
      expect(error.message).toContain("Cannot append to 'session-A'");
      expect(error.message).toContain('can never be written again. Start a new session.');
    }
    // Nothing written: the log is as the tombstone left it.
    expect(fake.records()).toHaveLength(logged);
    expect(streamRecords(fake, 'session-A')).toEqual(['TestEvent@0', 'TestEvent@1', `$streamDeleted@${DELETED_STREAM_REVISION}`]);
    // The node answers reads of a deleted stream with the same error, so reads are typed the same way.
    for (const call of [store.readStream('session-A'), store.streamState('session-A')]) {
      expect(await failure(call)).toMatchObject({ code: 'stream_deleted', details: { reason: 'stream_deleted', streamId: 'session-A' } });
    }

    // The append call itself (not only the read before it) is refused with the typed error: the
    // node's answer to a plain client's append, through the same mapping.
    const raw = await failure(withClient(fake.connectionString, (client) => client.appendToStream('session-A', jsonEvent({ type: 'T', data: {} }))));
    expect(raw).toBeInstanceOf(KurrentStreamDeletedError);
    expect(raw).toMatchObject({ type: 'stream-deleted', streamName: 'session-A', code: grpcStatus.FAILED_PRECONDITION });
    expect(toStoreError(raw, "append to 'session-A' in", { streamId: 'session-A', appendBytes: 2 })).toMatchObject({
      code: 'stream_deleted',
      details: { reason: 'stream_deleted', grpcCode: grpcStatus.FAILED_PRECONDITION, streamId: 'session-A' },
    });
    expect(fake.records()).toHaveLength(logged);
  });

  it('EST-19 after a tombstone, other streams append and read as before, and readAll leaves the $streamDeleted record out', async () => {
    const store = await open();
    await store.append('session-A', [testEvent('a0')], { expectedRevision: 'no_stream' });
    await store.append('session-B', [testEvent('b0')], { expectedRevision: 'no_stream' });
    await withClient(fake.connectionString, (client) => client.tombstoneStream('session-A'));

    expect(await store.append('session-B', [testEvent('b1')], { expectedRevision: 0 })).toMatchObject({ nextExpectedRevision: 1 });
    const created = await store.append('session-C', [testEvent('c0')], { expectedRevision: 'no_stream' });
    expect((await store.readStream('session-B')).map((e) => e.metadata.eventId)).toEqual(['b0', 'b1']);
    expect(await store.streamState('session-C')).toBe(0);

    // The tombstone sits in $all between b0 and b1; it is $-typed in a stream of ours, so it is
    // dropped. session-A's earlier event stays in $all (a node keeps it there until a scavenge).
    const tombstone = fake.records().find((r) => r.type === '$streamDeleted');
    expect(tombstone).toMatchObject({ streamName: 'session-A', revision: DELETED_STREAM_REVISION, data: new Uint8Array() });
    const all = await store.readAll();
    expect(all.map((e) => e.metadata.eventId)).toEqual(['a0', 'b0', 'b1', 'c0']);
    expect(all.at(-1)?.position).toBe(created.position);
    // Following $all across the tombstone: from b0's position, and from an offset inside it.
    const b0 = all[1]?.position ?? 0;
    expect((await store.readAll({ fromPosition: b0, maxCount: 2 })).map((e) => e.metadata.eventId)).toEqual(['b0', 'b1']);
    expect((await store.readAll({ fromPosition: b0 + 1, maxCount: 1 })).map((e) => e.metadata.eventId)).toEqual(['b1']);
    expect((await store.readAll({ fromPosition: Number(tombstone?.position) })).map((e) => e.metadata.eventId)).toEqual(['b1', 'c0']);
  });

  it('a retry is found in its own slot even when it is older than the idempotency window', async () => {
    const store = await open({ idempotencyWindow: 2 });
    const first = await store.append('session-A', [testEvent('e1'), testEvent('e2')], { expectedRevision: 'no_stream' });
    await store.append(
      'session-A',
      ['x', 'y', 'z', 'w'].map((id) => testEvent(id)),
      { expectedRevision: 1 },
    );
    expect(await store.append('session-A', [testEvent('e1'), testEvent('e2')], { expectedRevision: 'no_stream' })).toEqual(first);
    const changed = await failure(store.append('session-A', [testEvent('e1', { other: true }), testEvent('e2')], { expectedRevision: 'no_stream' }));
    expect(changed).toMatchObject({ code: 'idempotency_conflict', eventId: 'e1' });
    expect(await store.streamState('session-A')).toBe(5);
  });

  it('a closed store refuses calls with storage_unavailable; closing twice is fine', async () => {
    const store = await open();
    await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
    await store.close();
    await store.close();
    expect(await failure(store.readStream('session-A'))).toMatchObject({ code: 'storage_unavailable' });
    expect(await failure(store.append('session-A', [testEvent('e2')], { expectedRevision: 0 }))).toMatchObject({ code: 'storage_unavailable' });
  });
});

describe('KurrentDbEventStore.connect', () => {
  it('a connection string the client cannot parse is invalid_config, with the fix and without the password', async () => {
    for (const bad of ['mongodb://admin:s3cret@db:27017', 'kurrentdb://admin:s3cret@db:abc', 'kurrentdb://admin:s3cret@db:2113?tls=maybe', '']) {
      const error = await failure(KurrentDbEventStore.connect(bad));
      expect(error).toBeInstanceOf(KurrentDbConfigError);
      expect(error.code).toBe('invalid_config');
      expect(error.message).toContain('ONECLAW_KURRENTDB_CONNECTION_STRING');
      expect(error.message).toContain('kurrentdb+discover://');
      expect(error.message).not.toContain('s3cret');
    }
    expect((await failure(KurrentDbEventStore.connect('kurrentdb://db:abc'))).message).toContain('expected port number');
  });

  it('bad options are invalid_config', async () => {
    for (const options of [{ streamPrefix: '$system-' }, { idempotencyWindow: 0 }, { appendDeadlineMs: -1 }, { maxAppendBytes: 1.5 }]) {
      expect(await failure(KurrentDbEventStore.connect('kurrentdb://127.0.0.1:2113?tls=false', options))).toMatchObject({ code: 'invalid_config' });
    }
  });

  it('does no I/O: an unreachable node shows up as storage_unavailable on the first call', async () => {
    const fake = await startFakeKurrentDb();
    const connectionString = fake.connectionString;
    await fake.close();
    const store = await KurrentDbEventStore.connect(connectionString);
    try {
      const error = await failure(store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' }));
      expect(error).toMatchObject({ code: 'storage_unavailable', details: { reason: 'unavailable' } });
    } finally {
      await store.close();
    }
  });
});

describe('the fake KurrentDB follows KurrentDB rules for a plain client', () => {
  let fake: FakeKurrentDb;
  let client: KurrentDBClient;
  beforeEach(async () => {
    fake = await startFakeKurrentDb();
    client = KurrentDBClient.connectionString(fake.connectionString);
  });
  afterEach(async () => {
    await client.dispose();
    await fake.close();
  });
  it('idempotent by event id at the same expected revision (ids only), conflicts carry the current revision', async () => {
    const ids = [randomUUID(), randomUUID()];
    const batch = ids.map((id) => jsonEvent({ id, type: 'T', data: { id } }));
    const first = await client.appendToStream('s', batch, { streamState: 'no_stream' });
    expect(first.nextExpectedRevision).toBe(1n);
    // KurrentDB compares ids, not content: the "same" events with other data are acknowledged too.
    const otherData = ids.map((id) => jsonEvent({ id, type: 'T', data: { other: true } }));
    const again = await client.appendToStream('s', otherData, { streamState: 'no_stream' });
    expect(again).toEqual(first);
    const error = await failure(client.appendToStream('s', [jsonEvent({ type: 'T', data: {} })], { streamState: 0n }));
    expect(error).toMatchObject({ type: 'wrong-expected-version', actualState: 1n, expectedState: 0n });
    expect(fake.records().filter((r) => r.streamName === 's')).toHaveLength(2);
  });

  it('EST-19 a tombstone with a wrong expected revision is refused like an append with it, and writes nothing', async () => {
    await client.appendToStream('s', [jsonEvent({ type: 'T', data: {} }), jsonEvent({ type: 'T', data: {} })], { streamState: 'no_stream' });
    const logged = fake.records().length;
    const stale = { type: 'wrong-expected-version', streamName: 's', expectedState: 0n, actualState: 1n };
    const appendError = await failure(client.appendToStream('s', [jsonEvent({ type: 'T', data: {} })], { streamState: 0n }));
    expect(appendError).toBeInstanceOf(WrongExpectedVersionError);
    expect(appendError).toMatchObject(stale);
    const tombstoneError = await failure(client.tombstoneStream('s', { expectedRevision: 0n }));
    expect(tombstoneError).toBeInstanceOf(WrongExpectedVersionError);
    expect(tombstoneError).toMatchObject(stale);
    // The node sends a delete's conflict as a gRPC error (FAILED_PRECONDITION), an append's as a message.
    expect(tombstoneError).toMatchObject({ code: grpcStatus.FAILED_PRECONDITION });
    expect(tombstoneError.message).toContain('Delete failed due to WrongExpectedVersion. Stream: s, Expected version: 0, Actual version: 1');
    // no_stream on an existing stream, an exact revision on a missing one: refused the same way.
    expect(await failure(client.tombstoneStream('s', { expectedRevision: 'no_stream' }))).toMatchObject({ type: 'wrong-expected-version', actualState: 1n });
    expect(await failure(client.tombstoneStream('missing', { expectedRevision: 0n }))).toMatchObject({ type: 'wrong-expected-version', streamName: 'missing' });
    expect(fake.calls.tombstone).toBe(3);
    expect(fake.records()).toHaveLength(logged);

    // Nothing was deleted: the stream still takes the append the tombstones were refused with.
    expect((await client.appendToStream('s', [jsonEvent({ type: 'T', data: {} })], { streamState: 1n })).nextExpectedRevision).toBe(2n);
    // The right revision tombstones it; after that, a tombstone is refused as the stream is deleted.
    const { position } = await client.tombstoneStream('s', { expectedRevision: 2n });
    expect(fake.records().at(-1)).toMatchObject({ streamName: 's', type: '$streamDeleted', revision: DELETED_STREAM_REVISION, position: position?.commit });
    const again = await failure(client.tombstoneStream('s', { expectedRevision: 2n }));
    expect(again).toBeInstanceOf(KurrentStreamDeletedError);
    expect(again).toMatchObject({ type: 'stream-deleted', streamName: 's' });
    // Reads, through the native bridge, get the node's stream-deleted error too; so does the `$$s` metadata stream.
    expect(await failure(rawRead(fake.connectionString, 's'))).toMatchObject({ type: 'stream-deleted', streamName: 's' });
    expect(await failure(client.getStreamMetadata('s'))).toMatchObject({ type: 'stream-deleted' });
    // A stream that never existed can be tombstoned (with any or no_stream), as on a node.
    expect((await client.tombstoneStream('never-written', { expectedRevision: 'no_stream' })).position?.commit).toBe(fake.records().at(-1)?.position);
  });
});

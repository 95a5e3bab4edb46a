import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { EventStore } from '../event-store/event-store';
import { sessionStreamId, type SessionEvent } from '../events/session-events';
import { decide } from '../session/decide';
import { catchUp, replay } from '../session/evolve';
import type { SessionCommand } from '../session/session-commands';
import { initialSessionState, type SessionState } from '../session/session-state';
import { activeToolSet } from '../tools/active-tool-set';
import { deterministicIds } from '../ids';
import { testCatalogue } from './fixed-tool-catalogue';
import { steppingClock, testEvent } from './test-events';

export interface ContractStore {
  readonly store: EventStore;
  /** Called after each test (close the store, delete its files). */
  readonly dispose?: () => Promise<void> | void;
}

export interface ContractOptions {
  /** The store's configured maxAppendBytes; the suite appends just over it (EST-20). */
  readonly maxAppendBytes: number;
}

/**
 * The event store contract (RELIABILITY.md, EST-01..EST-17, EST-20). Every adapter runs it:
 * `describeEventStoreContract('SqliteEventStore', async () => ({ store, dispose }))`.
 * The factory must return a new, empty store for every test.
 */
export function describeEventStoreContract(name: string, factory: () => Promise<ContractStore> | ContractStore, options: ContractOptions = { maxAppendBytes: 1024 * 1024 }): void {
  describe(`EventStore contract: ${name}`, () => {
    let subject: ContractStore;
    let store: EventStore;
    beforeEach(async () => {
      subject = await factory();
      store = subject.store;
    });
    afterEach(async () => {
      await subject.dispose?.();
    });

    const codeOf = async (p: Promise<unknown>): Promise<string> => {
      try {
        await p;
      } catch (error) {
        return (error as { code?: string }).code ?? `untyped: ${String(error)}`;
      }
      throw new Error('expected the call to fail, but it succeeded');
    };

    it('EST-01 appends to a new stream with no_stream; revisions start at 0', async () => {
      const result = await store.append('session-A', [testEvent('e1'), testEvent('e2')], { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(1);
      const events = await store.readStream('session-A');
      expect(events.map((e) => [e.metadata.eventId, e.revision, e.streamId])).toEqual([
        ['e1', 0, 'session-A'],
        ['e2', 1, 'session-A'],
      ]);
      expect(events[0]?.data).toEqual({ n: 'e1' });
      expect(await store.streamState('session-A')).toBe(1);
    });

    it('EST-02 no_stream on an existing stream is a conflict with the actual revision; stream unchanged', async () => {
      await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
      const error = await store.append('session-A', [testEvent('e2')], { expectedRevision: 'no_stream' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'stream_revision_conflict', streamId: 'session-A', expected: 'no_stream', actual: 0 });
      expect((await store.readStream('session-A')).map((e) => e.metadata.eventId)).toEqual(['e1']);
    });

    it('EST-03 stream_exists on a missing stream is a conflict with actual no_stream', async () => {
      const error = await store.append('session-A', [testEvent('e1')], { expectedRevision: 'stream_exists' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'stream_revision_conflict', expected: 'stream_exists', actual: 'no_stream' });
      expect(await store.readStream('session-A')).toEqual([]);
      expect(await store.streamState('session-A')).toBe('no_stream');
    });

    it('EST-03 stream_exists on an existing stream appends', async () => {
      await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
      const result = await store.append('session-A', [testEvent('e2')], { expectedRevision: 'stream_exists' });
      expect(result.nextExpectedRevision).toBe(1);
    });

    it('EST-04 an exact revision on a missing stream is a conflict with actual no_stream', async () => {
      const error = await store.append('session-A', [testEvent('e1')], { expectedRevision: 1 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'stream_revision_conflict', expected: 1, actual: 'no_stream' });
      expect(await store.readStream('session-A')).toEqual([]);
    });

    it('EST-05 a stale exact revision loses; only the winner is written', async () => {
      await store.append(
        'session-A',
        [0, 1, 2, 3].map((i) => testEvent(`e${i}`)),
        { expectedRevision: 'no_stream' },
      );
      await store.append('session-A', [testEvent('b4')], { expectedRevision: 3 });
      const error = await store.append('session-A', [testEvent('a4')], { expectedRevision: 3 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'stream_revision_conflict', expected: 3, actual: 4 });
      const ids = (await store.readStream('session-A')).map((e) => e.metadata.eventId);
      expect(ids).toEqual(['e0', 'e1', 'e2', 'e3', 'b4']);
    });

    it('EST-06 of 20 concurrent writers with the same expected revision exactly one wins', async () => {
      await store.append('session-A', [testEvent('seed')], { expectedRevision: 'no_stream' });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => store.append('session-A', [testEvent(`w${i}-a`), testEvent(`w${i}-b`)], { expectedRevision: 0 })),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(19);
      for (const o of lost) expect(o.reason).toMatchObject({ code: 'stream_revision_conflict' });
      const events = await store.readStream('session-A');
      expect(events).toHaveLength(3);
      // The winner's batch is whole and not interleaved with anyone else's.
      const writer = events[1]?.metadata.eventId.split('-')[0];
      expect(events.map((e) => e.metadata.eventId)).toEqual(['seed', `${writer}-a`, `${writer}-b`]);
      expect(await store.streamState('session-A')).toBe(2);
    });

    it('EST-07 a batch with one bad event writes nothing', async () => {
      await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const bad = [testEvent('e2'), testEvent('e3'), testEvent('e4', circular)];
      expect(await codeOf(store.append('session-A', bad, { expectedRevision: 0 }))).toBe('event_not_serializable');
      expect(await codeOf(store.append('session-A', [testEvent('e2'), testEvent('e3', { big: 10n })], { expectedRevision: 0 }))).toBe('event_not_serializable');
      expect(await codeOf(store.append('session-A', [testEvent('e2'), testEvent('e3', { when: new Date() })], { expectedRevision: 0 }))).toBe('event_not_serializable');
      expect(await codeOf(store.append('session-A', [testEvent('e2'), testEvent('e2')], { expectedRevision: 0 }))).toBe('invalid_event');
      expect(await codeOf(store.append('session-A', [], { expectedRevision: 0 }))).toBe('invalid_event');
      expect((await store.readStream('session-A')).map((e) => e.metadata.eventId)).toEqual(['e1']);
      expect(await store.streamState('session-A')).toBe(0);
    });

    it('EST-08 re-appending the same ids at the same expected revision does not duplicate them', async () => {
      const first = await store.append('session-A', [testEvent('e1'), testEvent('e2')], { expectedRevision: 'no_stream' });
      const retry = await store.append('session-A', [testEvent('e1'), testEvent('e2')], { expectedRevision: 'no_stream' });
      expect(retry).toEqual(first);
      expect(await store.readStream('session-A')).toHaveLength(2);
      expect(await store.readAll()).toHaveLength(2);
    });

    it('EST-08 a retry after the stream moved on is still acknowledged, not duplicated', async () => {
      const first = await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
      await store.append('session-A', [testEvent('other')], { expectedRevision: 0 });
      expect(await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' })).toEqual(first);
      expect((await store.readStream('session-A')).map((e) => e.metadata.eventId)).toEqual(['e1', 'other']);
    });

    it('EST-08 the same event id may be used in another stream', async () => {
      await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
      await store.append('session-B', [testEvent('e1')], { expectedRevision: 'no_stream' });
      expect(await store.readAll()).toHaveLength(2);
    });

    it('EST-09 an id reused with different data is an idempotency conflict, never a duplicate', async () => {
      await store.append('session-A', [testEvent('e1', { v: 1 })], { expectedRevision: 'no_stream' });
      const error = await store.append('session-A', [testEvent('e1', { v: 2 })], { expectedRevision: 'no_stream' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'idempotency_conflict', eventId: 'e1' });
      expect(await codeOf(store.append('session-A', [testEvent('e1', { v: 1 }), testEvent('e9')], { expectedRevision: 0 }))).toBe('idempotency_conflict');
      expect((await store.readStream('session-A')).map((e) => e.data)).toEqual([{ v: 1 }]);
    });

    it('EST-10 the expected revision is required: undefined or junk is refused at run time', async () => {
      const untyped = store as unknown as { append(s: string, e: unknown[], o: unknown): Promise<unknown> };
      expect(await codeOf(untyped.append('session-A', [testEvent('e1')], {}))).toBe('invalid_expected_revision');
      expect(await codeOf(untyped.append('session-A', [testEvent('e1')], { expectedRevision: -1 }))).toBe('invalid_expected_revision');
      expect(await codeOf(untyped.append('session-A', [testEvent('e1')], { expectedRevision: 'latest' }))).toBe('invalid_expected_revision');
      expect(await codeOf(untyped.append('session-A', [testEvent('e1')], undefined))).toBe('invalid_expected_revision');
      expect(await store.readAll()).toEqual([]);
      // 'any' has to be spelled out, and then it appends whatever the stream's state.
      await store.append('session-A', [testEvent('e1')], { expectedRevision: 'any' });
      await store.append('session-A', [testEvent('e2')], { expectedRevision: 'any' });
      expect(await store.streamState('session-A')).toBe(1);
    });

    it('EST-11 revisions are contiguous and 0-based; readStream pages by revision', async () => {
      await store.append('session-A', [testEvent('a')], { expectedRevision: 'no_stream' });
      await store.append('session-A', [testEvent('b'), testEvent('c')], { expectedRevision: 0 });
      await store.append('session-A', [testEvent('d'), testEvent('e'), testEvent('f')], { expectedRevision: 2 });
      expect((await store.readStream('session-A')).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4, 5]);
      const page = await store.readStream('session-A', { fromRevision: 3, maxCount: 2 });
      expect(page.map((e) => [e.revision, e.metadata.eventId])).toEqual([
        [3, 'd'],
        [4, 'e'],
      ]);
      expect(await store.readStream('session-A', { fromRevision: 6 })).toEqual([]);
      expect(await store.readStream('session-missing')).toEqual([]);
    });

    it('EST-12 readAll gives a global order that keeps each stream in order', async () => {
      await store.append('session-A', [testEvent('a0')], { expectedRevision: 'no_stream' });
      await store.append('session-B', [testEvent('b0'), testEvent('b1')], { expectedRevision: 'no_stream' });
      await store.append('session-A', [testEvent('a1')], { expectedRevision: 0 });
      await store.append('session-B', [testEvent('b2')], { expectedRevision: 1 });
      const all = await store.readAll();
      expect(all.map((e) => e.metadata.eventId)).toEqual(['a0', 'b0', 'b1', 'a1', 'b2']);
      for (let i = 1; i < all.length; i++) expect((all[i] as { position: number }).position).toBeGreaterThan((all[i - 1] as { position: number }).position);
      expect(all.filter((e) => e.streamId === 'session-B').map((e) => e.revision)).toEqual([0, 1, 2]);
      const third = all[2] as { position: number };
      const rest = await store.readAll({ fromPosition: third.position, maxCount: 2 });
      expect(rest.map((e) => e.metadata.eventId)).toEqual(['b1', 'a1']);
    });

    it('EST-13 an append returns the position to read its own write from', async () => {
      await store.append('session-B', [testEvent('b0')], { expectedRevision: 'no_stream' });
      const result = await store.append('session-A', [testEvent('a0'), testEvent('a1')], { expectedRevision: 'no_stream' });
      const fromThere = await store.readAll({ fromPosition: result.position });
      expect(fromThere.map((e) => e.metadata.eventId)).toEqual(['a1']);
      expect((await store.readStream('session-A')).at(-1)?.position).toBe(result.position);
    });

    // Session-level rows: the domain's own events through this store.
    const catalogue = testCatalogue();
    const run = async (sessionId: string, commands: SessionCommand[]): Promise<void> => {
      const clock = steppingClock();
      let state: SessionState = initialSessionState;
      let revision: number | 'no_stream' = 'no_stream';
      for (const [i, command] of commands.entries()) {
        const events: SessionEvent[] = decide(command, state, { now: clock, newId: deterministicIds(`${sessionId}-c${i}`), catalogue });
        if (events.length === 0) continue;
        const result = await store.append(sessionStreamId(sessionId), events, { expectedRevision: revision });
        revision = result.nextExpectedRevision;
        state = replay(events, state);
      }
    };
    // The user loads groups between turns (a user load is refused while a turn is open).
    const gmailTurn: SessionCommand[] = [
      { type: 'StartSession', sessionId: 's1', agentId: 'default' },
      { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'user' } },
      { type: 'LoadToolGroup', groupName: 'google_drive', source: { kind: 'user' } },
      { type: 'RecordUserMessage', messageId: 'm1', text: 'check my email' },
    ];

    it('EST-14 after SessionCleared the replayed tool set is core only, and history stays in the log', async () => {
      await run('s1', [
        ...gmailTurn,
        { type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } },
        { type: 'ClearSession', reason: '/clear' },
      ]);
      const events = await store.readStream(sessionStreamId('s1'));
      const state = replay(events);
      expect(state.loadedGroups).toEqual([]);
      expect(activeToolSet(state, catalogue)).toEqual(catalogue.coreToolNames());
      expect(events.map((e) => e.type)).toEqual(['SessionStarted', 'ToolGroupLoaded', 'ToolGroupLoaded', 'MessageSent', 'TurnFinished', 'SessionCleared']);
    });

    it('EST-15 rebuilding a projection twice from readAll gives the same state as building it incrementally', async () => {
      await run('s1', gmailTurn);
      await run('s2', gmailTurn.slice(0, 3));
      const incremental = replay(await store.readStream(sessionStreamId('s1')));
      const fromAll = async () => replay((await store.readAll()).filter((e) => e.streamId === sessionStreamId('s1')));
      const first = await fromAll();
      const second = await fromAll();
      expect(first).toEqual(second);
      expect(first).toEqual(incremental);
      expect(activeToolSet(first, catalogue)).toEqual([...catalogue.coreToolNames(), ...catalogue.groupToolNames('google_gmail'), ...catalogue.groupToolNames('google_drive')]);
    });

    it('EST-16 a consumer that handles event k again after a crash ends in the same state', async () => {
      await run('s1', [...gmailTurn, { type: 'RecordUserMessage', messageId: 'm2', text: 'and drive?' }]);
      const events = await store.readStream(sessionStreamId('s1'));
      const once = catchUp(initialSessionState, events);
      // Crash after handling event k=3 but before saving the checkpoint: delivery resumes at k.
      const k = 3;
      const beforeCrash = catchUp(initialSessionState, events.slice(0, k + 1));
      const resumed = catchUp(beforeCrash, events.slice(k));
      expect(resumed).toEqual(once);
      expect(resumed.messages).toHaveLength(2);
    });

    it('EST-17 a poison event in the stream is skipped by the projection, never thrown', async () => {
      await run('s1', gmailTurn.slice(0, 3));
      const stream = sessionStreamId('s1');
      const revision = await store.streamState(stream);
      await store.append(stream, [testEvent('poison-1', { x: 1 }, 'SomethingFromTheFuture'), testEvent('poison-2', { nope: true }, 'ToolGroupLoaded')], {
        expectedRevision: revision,
      });
      const state = replay(await store.readStream(stream));
      expect(state.skippedEvents).toBe(2);
      expect(state.loadedGroups.map((g) => g.groupName)).toEqual(['google_gmail', 'google_drive']);
      expect(state.eventCount).toBe(5);
    });

    it('EST-20 an append over the size limit is refused before any write', async () => {
      await store.append('session-A', [testEvent('e1')], { expectedRevision: 'no_stream' });
      const big = 'x'.repeat(options.maxAppendBytes);
      const error = await store.append('session-A', [testEvent('e2', { big })], { expectedRevision: 0 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'payload_too_large', limit: options.maxAppendBytes });
      expect(await store.streamState('session-A')).toBe(0);
      // Just under the limit is fine: the limit is on the payload, not a guess.
      const fits = 'x'.repeat(Math.floor(options.maxAppendBytes / 2));
      await store.append('session-A', [testEvent('e3', { fits })], { expectedRevision: 0 });
      expect((await store.readStream('session-A', { fromRevision: 1 }))[0]?.data).toEqual({ fits });
    });

    it('stores copies: mutating what was appended or read changes nothing stored', async () => {
      const data = { list: [1, 2] };
      await store.append('session-A', [testEvent('e1', data)], { expectedRevision: 'no_stream' });
      data.list.push(3);
      const [read] = await store.readStream('session-A');
      (read?.data as { list: number[] }).list.push(4);
      expect((await store.readStream('session-A'))[0]?.data).toEqual({ list: [1, 2] });
    });

    it('keeps unicode and nested data exactly', async () => {
      const data = { text: 'héllo 👋 \u0000 "q"', nested: { a: [null, true, 1.5, { b: '' }] } };
      await store.append('session-A', [testEvent('e1', data)], { expectedRevision: 'no_stream' });
      expect((await store.readStream('session-A'))[0]?.data).toEqual(data);
    });
  });
}

import { describe, expect, it } from '@jest/globals';
import { InMemoryEventStore, OneClawError, type Aggregate, type EventEnvelope } from '@oneclaw/core';
import { AggregateRepository } from './aggregate-repository';

/** A counter with a ceiling: enough rules to see decide, evolve, conflicts and no-op commands. */
type CounterEvent = EventEnvelope<'Added', { readonly amount: number }>;
type CounterCommand = { readonly type: 'Add'; readonly amount: number };
const counter: Aggregate<number, CounterCommand, CounterEvent> = {
  streamId: 'counter',
  initialState: 0,
  schemaVersion: 1,
  decide(command, state) {
    if (command.amount === 0) return [];
    if (state + command.amount > 10) throw new OneClawError('over_limit', `The counter is at ${state}; it cannot pass 10.`);
    return [{ type: 'Added', data: { amount: command.amount } }];
  },
  evolve(state, event) {
    const amount = (event.data as { amount?: unknown }).amount;
    return event.type === 'Added' && typeof amount === 'number' ? state + amount : state;
  },
};

describe('AggregateRepository', () => {
  it('decides on the current state, appends, and folds its own events without a re-read', async () => {
    const store = new InMemoryEventStore();
    const seen: EventEnvelope[] = [];
    const repo = new AggregateRepository(store, counter, { onEvents: (events) => seen.push(...events) });
    expect((await repo.record({ type: 'Add', amount: 3 }, { commandId: 'a' })).state).toBe(3);
    const second = await repo.record({ type: 'Add', amount: 4 }, { commandId: 'b' });
    expect(second).toMatchObject({ state: 7, revision: 1 });
    expect(second.events.map((e) => e.metadata.eventId)).toEqual(['b:0']);
    expect(seen.map((e) => e.data)).toEqual([{ amount: 3 }, { amount: 4 }]);
    expect((await store.readStream('counter')).map((e) => e.type)).toEqual(['Added', 'Added']);
  });

  it('records nothing for a command that changes nothing, and refuses a rule breach before any write', async () => {
    const store = new InMemoryEventStore();
    const repo = new AggregateRepository(store, counter);
    await repo.record({ type: 'Add', amount: 9 }, { commandId: 'a' });
    expect((await repo.record({ type: 'Add', amount: 0 }, { commandId: 'b' })).events).toEqual([]);
    await expect(repo.record({ type: 'Add', amount: 5 }, { commandId: 'c' })).rejects.toMatchObject({ code: 'over_limit' });
    expect(await store.readStream('counter')).toHaveLength(1);
  });

  it('catches up with another replica: a stale cache conflicts, re-reads and decides again on fresh state', async () => {
    const store = new InMemoryEventStore();
    const here = new AggregateRepository(store, counter);
    const there = new AggregateRepository(store, counter);
    await here.load();
    await there.record({ type: 'Add', amount: 6 }, { commandId: 'there-1' });
    // `here` still believes 0; its decision is redone on 6, where 5 breaks the ceiling.
    await expect(here.record({ type: 'Add', amount: 5 }, { commandId: 'here-1' })).rejects.toMatchObject({ code: 'over_limit' });
    expect((await here.record({ type: 'Add', amount: 4 }, { commandId: 'here-2' })).state).toBe(10);
    expect((await there.load()).state).toBe(10);
  });

  it('queues concurrent writes of one server so none is lost', async () => {
    const store = new InMemoryEventStore();
    const repo = new AggregateRepository(store, counter);
    await Promise.all([1, 2, 3, 4].map((n) => repo.record({ type: 'Add', amount: 1 }, { commandId: `c${n}` })));
    expect(repo.cached.state).toBe(4);
    expect(await store.readStream('counter')).toHaveLength(4);
  });

  it('a retried command (same id) after it landed is acknowledged, not written twice', async () => {
    const store = new InMemoryEventStore();
    await new AggregateRepository(store, counter).record({ type: 'Add', amount: 2 }, { commandId: 'same' });
    const fresh = new AggregateRepository(store, counter);
    // The fresh repository decides on revision 0 and appends 'same:0' again with the same content:
    // the store acknowledges the earlier landing, and the state must not count it twice.
    expect((await fresh.record({ type: 'Add', amount: 2 }, { commandId: 'same' })).state).toBe(2);
    expect(await store.readStream('counter')).toHaveLength(1);
    expect((await new AggregateRepository(store, counter).load()).state).toBe(2);
  });
});

import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '../events/event-envelope';
import type { AppendOptions, AppendResult } from '../event-store/event-store';
import { StreamRevisionConflictError } from '../event-store/event-store-errors';
import { InMemoryEventStore } from '../event-store/in-memory-event-store';
import { OneClawError } from '../oneclaw-error';
import { testEvent } from '../testing/test-events';
import { MAX_COMMAND_ATTEMPTS, recordCommand, type CommandPath, type StreamSnapshot } from './record-command';

/** A counter model: its state is the number of events in the stream. */
type Snap = StreamSnapshot<number>;
const STREAM = 'counter-1';

/** A store where another writer appends just before each of this path's first `interruptions` appends. */
class InterruptedStore extends InMemoryEventStore {
  appends = 0;
  constructor(private interruptions: number) {
    super();
  }
  override async append(streamId: string, events: readonly EventEnvelope[], options: AppendOptions): Promise<AppendResult> {
    if (this.interruptions > 0 && streamId === STREAM && events[0]?.type === 'TestEvent') {
      this.interruptions -= 1;
      await super.append(streamId, [testEvent(`other-${this.interruptions}`, {}, 'OtherWriter')], { expectedRevision: 'any' });
    }
    this.appends += 1;
    return super.append(streamId, events, options);
  }
}

function counterPath(store: InMemoryEventStore, eventId: string, calls: string[], overrides: Partial<CommandPath<Snap, EventEnvelope>> = {}): CommandPath<Snap, EventEnvelope> {
  const read = async (): Promise<Snap> => {
    const events = await store.readStream(STREAM);
    return { state: events.length, revision: events.at(-1)?.revision ?? 'no_stream' };
  };
  return {
    store,
    streamId: STREAM,
    current: async (attempt) => {
      calls.push(`current ${attempt}`);
      return read();
    },
    decide: () => [testEvent(eventId)],
    appended: (current, events, revision) => {
      calls.push('appended');
      return { state: current.state + events.length, revision };
    },
    reload: async () => {
      calls.push('reload');
      return read();
    },
    ...overrides,
  };
}

describe('recordCommand: the one command path of sessions, configuration and scheduled tasks', () => {
  it('decides on the current state, appends with its revision and folds what it appended', async () => {
    const store = new InMemoryEventStore();
    const calls: string[] = [];
    const recorded = await recordCommand(counterPath(store, 'e1', calls));
    expect(recorded).toMatchObject({ state: 1, revision: 0, position: expect.any(Number) });
    expect(recorded.events.map((e) => e.metadata.eventId)).toEqual(['e1']);
    expect(calls).toEqual(['current 1', 'appended']);
    expect((await store.readStream(STREAM)).map((e) => e.metadata.eventId)).toEqual(['e1']);
  });

  it('on a revision conflict decides again from fresh state (EST-21), and writes the events once', async () => {
    const store = new InterruptedStore(2);
    const calls: string[] = [];
    const recorded = await recordCommand(counterPath(store, 'e1', calls));
    expect(calls).toEqual(['current 1', 'current 2', 'current 3', 'appended']);
    expect(recorded).toMatchObject({ state: 3, revision: 2 });
    expect((await store.readStream(STREAM)).map((e) => e.metadata.eventId)).toEqual(['other-1', 'other-0', 'e1']);
  });

  it(`throws the conflict after ${MAX_COMMAND_ATTEMPTS} attempts (or maxAttempts), having written nothing of its own`, async () => {
    const store = new InterruptedStore(100);
    await expect(recordCommand(counterPath(store, 'e1', []))).rejects.toBeInstanceOf(StreamRevisionConflictError);
    expect(store.appends).toBe(MAX_COMMAND_ATTEMPTS);
    const fewer = new InterruptedStore(100);
    await expect(recordCommand(counterPath(fewer, 'e1', [], { maxAttempts: 2 }))).rejects.toBeInstanceOf(StreamRevisionConflictError);
    expect(fewer.appends).toBe(2);
    expect((await store.readStream(STREAM)).some((e) => e.metadata.eventId === 'e1')).toBe(false);
  });

  it('an earlier landing of the same event ids (a retried command) is read back, never folded twice', async () => {
    const store = new InMemoryEventStore();
    await recordCommand(counterPath(store, 'e1', []));
    const calls: string[] = [];
    // The same command again, on a state that already holds e1 (its first answer was lost after
    // the cache took it in): the store acknowledges e1 without writing it a second time.
    const recorded = await recordCommand(counterPath(store, 'e1', calls, { current: async () => ({ state: 1, revision: 0 }) }));
    expect(calls).toEqual(['reload']);
    expect(recorded).toMatchObject({ state: 1, revision: 0 });
    expect((await store.readStream(STREAM)).map((e) => e.metadata.eventId)).toEqual(['e1']);
  });

  it('a command that changes nothing appends nothing; a refusal is thrown at once', async () => {
    const store = new InMemoryEventStore();
    const calls: string[] = [];
    expect(await recordCommand(counterPath(store, 'e1', calls, { decide: () => [] }))).toEqual({ state: 0, revision: 'no_stream', events: [], position: null });
    const refusal = new OneClawError('not_allowed', 'No.');
    await expect(
      recordCommand(
        counterPath(store, 'e1', calls, {
          decide: () => {
            throw refusal;
          },
        }),
      ),
    ).rejects.toBe(refusal);
    expect(calls).toEqual(['current 1', 'current 1']);
    expect(await store.readStream(STREAM)).toEqual([]);
  });
});

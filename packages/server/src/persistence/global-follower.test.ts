import { describe, expect, it, jest } from '@jest/globals';
import { InMemoryEventStore, type EventEnvelope, type RecordedEvent } from '@oneclaw/core';
import { GlobalFollower } from './global-follower';

async function storeWith(count: number): Promise<InMemoryEventStore> {
  const store = new InMemoryEventStore();
  const events: EventEnvelope[] = Array.from({ length: count }, (_, i) => ({
    type: 'Noted',
    data: { i },
    metadata: { eventId: `e${i}`, occurredAt: '2026-11-26T00:00:00.000Z', correlationId: 'c', causationId: 'c', schemaVersion: 1 },
  }));
  for (let i = 0; i < count; i += 500) await store.append(`s-${i}`, events.slice(i, i + 500), { expectedRevision: 'no_stream' });
  return store;
}

describe('GlobalFollower', () => {
  it('hands over each page of new events in order, and on the next catch-up only what came after', async () => {
    const store = await storeWith(2500);
    const pages: number[][] = [];
    const follower = new GlobalFollower(store, (events) => pages.push(events.map((e: RecordedEvent) => (e.data as { i: number }).i)));
    await follower.catchUp();
    expect(pages.flat()).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    expect(Math.max(...pages.map((p) => p.length))).toBeLessThanOrEqual(1000);
    pages.length = 0;
    await store.append(
      's-late',
      [{ type: 'Noted', data: { i: 2500 }, metadata: { eventId: 'late', occurredAt: '2026-11-26T00:00:00.000Z', correlationId: 'c', causationId: 'c', schemaVersion: 1 } }],
      {
        expectedRevision: 'no_stream',
      },
    );
    await follower.catchUp();
    expect(pages).toEqual([[2500]]);
  });

  it('a catch-up asked for while a read is under way applies what was appended before it was asked for; callers meanwhile share one more read', async () => {
    const store = await storeWith(10);
    const readAll = store.readAll.bind(store);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reads = jest.spyOn(store, 'readAll').mockImplementation(async (options) => {
      const page = await readAll(options);
      if (reads.mock.calls.length === 1) await gate; // the first read has its page, then waits
      return page;
    });
    const seen: number[] = [];
    const follower = new GlobalFollower(store, (events) => seen.push(...events.map((e: RecordedEvent) => (e.data as { i: number }).i)));
    const first = follower.catchUp();
    await new Promise((resolve) => setImmediate(resolve)); // the first read has read its page
    await store.append(
      's-late',
      [{ type: 'Noted', data: { i: 10 }, metadata: { eventId: 'late', occurredAt: '2026-11-26T00:00:00.000Z', correlationId: 'c', causationId: 'c', schemaVersion: 1 } }],
      { expectedRevision: 'no_stream' },
    );
    const second = follower.catchUp();
    const third = follower.catchUp();
    expect(third).toBe(second);
    release();
    await first;
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => i));
    await second;
    expect(seen).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('stop() ends a read in progress after its current page, without handing that page over, and reads nothing more', async () => {
    const store = await storeWith(2500);
    const readAll = jest.spyOn(store, 'readAll');
    const pages: unknown[] = [];
    const follower = new GlobalFollower(store, (events) => pages.push(events));
    const reading = follower.catchUp();
    follower.stop();
    await reading;
    await follower.catchUp();
    expect(pages).toEqual([]);
    expect(readAll).toHaveBeenCalledTimes(1);
  });
});

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

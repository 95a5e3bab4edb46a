import { afterEach, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@oneclaw/core';
import { testEvent } from '@oneclaw/core/testing';
import { describeWithPostgres } from './testing';
import { PostgresEventStore } from './postgres-event-store';

// The server's followers (session list, history search, config, scheduled tasks) poll
// `readAll({ fromPosition })` and remember the last position they applied. That is only correct
// if positions become visible in order: with a plain sequence, an append that took position 11
// can commit after one that took 12, and a follower that already read 12 skips 11 for ever.
// The store serializes appends on one lock row (ADR 0014); this test hammers it from many
// connections while a follower polls, and checks that the follower saw every event once.

const STORES = 4;
const WRITERS_PER_STORE = 6;
const BATCHES = 15;

/** The follower loop of packages/server/src/persistence/global-follower.ts, without the server. */
class Follower {
  lastPosition = -1;
  readonly seen: RecordedEvent[] = [];
  constructor(private readonly store: PostgresEventStore) {}

  async catchUp(): Promise<void> {
    for (;;) {
      const batch = await this.store.readAll({ fromPosition: Math.max(0, this.lastPosition), maxCount: 100 });
      const fresh = batch.filter((e) => e.position > this.lastPosition);
      this.seen.push(...fresh);
      if (fresh.length > 0) this.lastPosition = (fresh.at(-1) as RecordedEvent).position;
      if (fresh.length < 99) return;
    }
  }
}

describeWithPostgres('PostgresEventStore and followers that read by position', (cluster) => {
  const opened: PostgresEventStore[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  it(`PG-09 ${STORES * WRITERS_PER_STORE} writers on ${STORES} stores (separate connections) append while followers poll by position: each follower sees every acknowledged event exactly once, in position order`, async () => {
    const url = await cluster().createDatabase();
    for (let i = 0; i < STORES + 2; i++) opened.push(await PostgresEventStore.connect(url, { poolSize: 4 }));
    const writerStores = opened.slice(0, STORES);
    const followers = opened.slice(STORES).map((store) => new Follower(store));

    let writing = true;
    const acknowledged: string[] = [];
    const writer = async (store: PostgresEventStore, id: string) => {
      for (let b = 0; b < BATCHES; b++) {
        // Batches of 1 to 3 events, so transactions hold the lock for different times.
        const events = Array.from({ length: 1 + (b % 3) }, (_, k) => testEvent(`${id}-${b}-${k}`));
        await store.append(`stream-${id}`, events, { expectedRevision: b === 0 ? 'no_stream' : 'stream_exists' });
        acknowledged.push(...events.map((e) => e.metadata.eventId));
      }
    };
    const writers = Promise.all(writerStores.flatMap((store, s) => Array.from({ length: WRITERS_PER_STORE }, (_, w) => writer(store, `s${s}w${w}`)))).finally(
      () => (writing = false),
    );
    let polls = 0;
    const follow = async (follower: Follower) => {
      while (writing) {
        await follower.catchUp();
        polls++;
      }
      await follower.catchUp();
    };
    await Promise.all([writers, ...followers.map(follow)]);

    expect(polls).toBeGreaterThan(followers.length); // they really read while the writers wrote
    const all = await (opened[0] as PostgresEventStore).readAll();
    expect(all).toHaveLength(acknowledged.length);
    expect(all.map((e) => e.position)).toEqual(all.map((_, i) => i + 1)); // no gaps to explain
    for (const follower of followers) {
      expect(follower.seen.map((e) => e.position)).toEqual(all.map((e) => e.position));
      expect(new Set(follower.seen.map((e) => `${e.streamId}/${e.metadata.eventId}`)).size).toBe(acknowledged.length);
    }
  }, 120_000);
});

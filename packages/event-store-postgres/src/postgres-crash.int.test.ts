import { afterEach, expect, it } from '@jest/globals';
import { testEvent } from '@oneclaw/core/testing';
import { describeWithPostgres } from './testing';
import { PostgresEventStore } from './postgres-event-store';

// kill -9 of the PostgreSQL postmaster (its backends die with it) while appends run, then a
// restart with crash recovery. With synchronous_commit on (the default) an append is
// acknowledged only once its commit record is on disk, so every acknowledged event must be
// there; an append in flight at the kill may or may not be, but whole or not at all. The same
// store object goes on after the restart: its pool drops the dead connections and opens new ones.

const WRITERS = 6;
const ROUNDS = 3;
const ACKS_BEFORE_KILL = 60;

interface Acked {
  readonly streamId: string;
  readonly eventIds: readonly string[];
}

describeWithPostgres('PostgresEventStore when PostgreSQL is killed or restarted', (cluster) => {
  const opened: PostgresEventStore[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  it(`PG-10 SIGKILL of the postmaster during appends, ${ROUNDS} times: after restart every acknowledged event is there, no partial batch, revisions and positions without gaps`, async () => {
    const url = await cluster().createDatabase();
    const store = await PostgresEventStore.connect(url, { poolSize: WRITERS });
    opened.push(store);
    const acked: Acked[] = [];
    const failures: unknown[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let ackedThisRound = 0;
      let killed: (() => void) | undefined;
      const enoughAcks = new Promise<void>((resolve) => (killed = resolve));
      const writer = async (w: number) => {
        const streamId = `r${round}-w${w}`;
        for (let b = 0; ; b++) {
          const events = [testEvent(`${streamId}-${b}-a`), testEvent(`${streamId}-${b}-b`)];
          try {
            await store.append(streamId, events, { expectedRevision: b === 0 ? 'no_stream' : 2 * b - 1 });
          } catch (error) {
            failures.push(error);
            return;
          }
          acked.push({ streamId, eventIds: events.map((e) => e.metadata.eventId) });
          if (++ackedThisRound === ACKS_BEFORE_KILL) killed?.();
        }
      };
      const writers = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      await enoughAcks;
      await cluster().kill();
      await writers; // every writer stops at its first failure
      await cluster().restart();
    }

    // The outage was reported as the port's typed error, whatever the driver said.
    expect(failures).toHaveLength(WRITERS * ROUNDS);
    for (const failure of failures) expect(failure).toMatchObject({ code: 'storage_unavailable', details: { reason: expect.stringMatching(/^connection_(lost|refused)$/) } });

    const all = await store.readAll();
    const stored = new Set(all.map((e) => `${e.streamId}/${e.metadata.eventId}`));
    const missing = acked.flatMap((a) => a.eventIds.map((id) => `${a.streamId}/${id}`)).filter((key) => !stored.has(key));
    expect(missing).toEqual([]);
    expect(all.map((e) => e.position)).toEqual(all.map((_, i) => i + 1));
    const byStream = new Map<string, typeof all>();
    for (const e of all) byStream.set(e.streamId, [...(byStream.get(e.streamId) ?? []), e]);
    for (const [streamId, events] of byStream) {
      expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
      // Whole batches only: an even number of events, each batch's a then b.
      expect(events.length % 2).toBe(0);
      events.forEach((e, i) => expect(e.metadata.eventId).toBe(`${streamId}-${Math.floor(i / 2)}-${i % 2 === 0 ? 'a' : 'b'}`));
    }
    // And the store writes again after the restarts.
    await expect(store.append('after', [testEvent('x')], { expectedRevision: 'no_stream' })).resolves.toMatchObject({ position: all.length + 1 });
  }, 180_000);

  it('PG-11 a stopped server is storage_unavailable (connection_refused) on every call; after restart the same store reads and appends again', async () => {
    const url = await cluster().createDatabase();
    const store = await PostgresEventStore.connect(url, { connectTimeoutMs: 5000 });
    opened.push(store);
    await store.append('s', [testEvent('e1')], { expectedRevision: 'no_stream' });
    await cluster().stop();
    const down = await Promise.allSettled([store.append('s', [testEvent('e2')], { expectedRevision: 0 }), store.readAll(), store.streamState('s')]);
    for (const outcome of down) {
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'storage_unavailable', details: { reason: expect.stringMatching(/^connection_(lost|refused)$/) } } });
      const message = (outcome as PromiseRejectedResult).reason.message as string;
      expect(message).toContain(`127.0.0.1:${cluster().port}`);
      expect(message).not.toContain(cluster().password);
    }
    await cluster().restart();
    expect(await store.append('s', [testEvent('e2')], { expectedRevision: 0 })).toEqual({ nextExpectedRevision: 1, position: 2 });
    expect((await store.readStream('s')).map((e) => e.metadata.eventId)).toEqual(['e1', 'e2']);
  }, 120_000);
});

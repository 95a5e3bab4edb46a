/**
 * F4 on PostgreSQL: a cold load of a 10,000-event session into its state and active tool set,
 * the old path (read and fold every event) against the snapshot path (the latest snapshot and the
 * events after it, as the server's cold load does since snapshots are kept in PostgreSQL too),
 * side by side in one run on a throwaway local cluster. Prints a markdown table for docs/.
 *   pnpm --filter @oneclaw/event-store-postgres bench   (node dist/bench/snapshot.bench.js)
 * Environment: BENCH_LOADS (200 per case).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { activeToolSet, loadSessionState, replay, sessionSnapshotOf, sessionStreamId } from '@oneclaw/core';
import { appendBatches, longSession, longSessionCatalogue as catalogue } from '@oneclaw/core/testing/long-session';
import { PostgresEventStore } from '../postgres-event-store';
import { postgresBinDir, startTestPostgres } from '../testing/test-postgres';

const SESSION_EVENTS = 10_000;
/** The server writes a snapshot every 500 events (ONECLAW_SNAPSHOT_EVERY): a cold load folds 0 to 499 after it. */
const SNAPSHOT_EVERY = 500;
const LOADS = Number(process.env.BENCH_LOADS ?? 200);

/** p50 and p99 (nearest rank) of `LOADS` runs of `load`, after 10 untimed ones. */
async function measure(load: () => Promise<number>): Promise<{ p50: number; p99: number }> {
  let sink = 0;
  for (let i = 0; i < 10; i++) sink += await load();
  const times: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const start = performance.now();
    sink += await load();
    times.push(performance.now() - start);
  }
  if (sink < 0) console.log(sink);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] as number;
  return { p50: at(0.5), p99: at(0.99) };
}

async function main(): Promise<void> {
  if (!postgresBinDir()) {
    console.log('PostgreSQL snapshot bench skipped: PostgreSQL binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
    return;
  }
  const cluster = await startTestPostgres();
  try {
    const store = await PostgresEventStore.connect(await cluster.createDatabase());
    try {
      const session = longSession('bench', SESSION_EVENTS);
      const events = session.flat();
      const latestId = sessionStreamId('latest');
      const behindId = sessionStreamId('behind');
      await appendBatches(store, latestId, session);
      await appendBatches(store, behindId, session);
      const snapshots = store.snapshotStore();
      // As the server could find them: at the last event (nothing to fold), and SNAPSHOT_EVERY - 1
      // events behind it (the most a cold load folds between two snapshots).
      const snapshotAt = (streamId: string, count: number) =>
        sessionSnapshotOf(streamId, replay(events.slice(0, count)), events[count - 1]?.metadata.eventId as string, new Date());
      if (!(await snapshots.write(snapshotAt(latestId, SESSION_EVENTS)))) throw new Error('the latest snapshot was refused');
      if (!(await snapshots.write(snapshotAt(behindId, SESSION_EVENTS - SNAPSHOT_EVERY + 1)))) throw new Error('the snapshot behind was refused');

      const old = await measure(async () => activeToolSet(replay(await store.readStream(latestId)), catalogue).length);
      const latest = await measure(async () => activeToolSet((await loadSessionState(store, snapshots, latestId)).state, catalogue).length);
      const behind = await measure(async () => activeToolSet((await loadSessionState(store, snapshots, behindId)).state, catalogue).length);

      const info = await store.connectionInfo();
      const cpus = os.cpus();
      const ms = (value: number) => `${value.toFixed(2)} ms`;
      console.log(`## F4 on PostgreSQL: cold load of a ${SESSION_EVENTS.toLocaleString('en')}-event session (state and active tool set)\n`);
      console.log(
        `${new Date().toISOString()} · ${cpus[0]?.model.trim() ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version} · PostgreSQL ${info.serverVersion} (local cluster, loopback) · ${LOADS} loads per case\n`,
      );
      console.log('| case | p50 | p99 | p50 vs old path |');
      console.log('|---|---:|---:|---:|');
      console.log(`| old path: read every event and fold it | ${ms(old.p50)} | ${ms(old.p99)} | 1.00× |`);
      console.log(`| snapshot at the last event | ${ms(latest.p50)} | ${ms(latest.p99)} | ${(latest.p50 / old.p50).toFixed(2)}× |`);
      console.log(`| snapshot ${SNAPSHOT_EVERY - 1} events behind (the most a cold load folds) | ${ms(behind.p50)} | ${ms(behind.p99)} | ${(behind.p50 / old.p50).toFixed(2)}× |`);
    } finally {
      await store.close();
    }
  } finally {
    await cluster.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

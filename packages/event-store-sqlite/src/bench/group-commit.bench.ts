/**
 * Group commit (issue 17, F5): SqliteEventStore with `groupCommit` on (the default) and off,
 * side by side in one run, on the same kind of file:
 *   (a) one writer appending one event at a time: what the wait for the check phase costs alone;
 *   (b) 50 writers on 50 streams, each appending one event at a time as fast as it can (as 50
 *       busy sessions do): appends per second, latency, and how many appends each commit carried.
 *   node dist/bench/group-commit.bench.js   (part of `pnpm bench`)
 * Environment: BENCH_GROUP_SECONDS (4 per case and mode, in 4 alternating rounds), BENCH_GROUP_WRITERS (50).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EventEnvelope, StreamState } from '@oneclaw/core';
import { SqliteEventStore } from '../sqlite-event-store';
import { sqliteVersion } from '../sqlite-version';

const SECONDS = Number(process.env.BENCH_GROUP_SECONDS ?? 4);
const WRITERS = Number(process.env.BENCH_GROUP_WRITERS ?? 50);
/** Off and on alternate in this many rounds, so a noisy disk moment does not land on one mode. */
const ROUNDS = 4;

interface Outcome {
  readonly appends: number;
  readonly seconds: number;
  readonly latencies: number[];
  readonly commits: number;
}

function event(writer: number, i: number): EventEnvelope {
  return {
    type: 'MessageSent',
    data: { messageId: `w${writer}-m${i}`, role: 'user', text: `Message ${i}: what is on my calendar tomorrow, and can you move the 3pm?` },
    metadata: { eventId: `w${writer}-${i}`, occurredAt: new Date(Date.UTC(2026, 0, 1) + i).toISOString(), correlationId: `c${i}`, causationId: `c${i}`, schemaVersion: 1 },
  };
}

/** `writers` loops, each appending to its own stream until the time is up. */
async function run(groupCommit: boolean, writers: number, seconds: number): Promise<Outcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-group-bench-'));
  let commits = 0;
  const store = SqliteEventStore.open(path.join(dir, 'events.db'), { groupCommit, onCommit: () => (commits += 1) });
  const latencies: number[] = [];
  try {
    // Warm-up: the file, its WAL and the statements exist before the clock starts.
    for (let w = 0; w < writers; w++) await store.append(`session-w${w}`, [event(w, -1)], { expectedRevision: 'no_stream' });
    commits = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const loop = async (w: number): Promise<void> => {
      let revision: StreamState = 0;
      for (let i = 0; performance.now() < deadline; i++) {
        const sent = performance.now();
        revision = (await store.append(`session-w${w}`, [event(w, i)], { expectedRevision: revision })).nextExpectedRevision;
        latencies.push(performance.now() - sent);
      }
    };
    await Promise.all(Array.from({ length: writers }, (_, w) => loop(w)));
    return { appends: latencies.length, seconds: (performance.now() - started) / 1000, latencies, commits };
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

const ms = (n: number): string => (n >= 1 ? `${n.toFixed(2)} ms` : `${(n * 1000).toFixed(0)} µs`);

function row(label: string, mode: string, o: Outcome, baseline?: Outcome): string {
  const sorted = [...o.latencies].sort((a, b) => a - b);
  const rate = o.appends / o.seconds;
  const ratio = baseline ? `${(rate / (baseline.appends / baseline.seconds)).toFixed(2)}×` : '1.00×';
  return `| ${label} | ${mode} | ${rate.toFixed(0)} | ${ratio} | ${ms(percentile(sorted, 0.5))} | ${ms(percentile(sorted, 0.99))} | ${(o.appends / Math.max(1, o.commits)).toFixed(1)} |`;
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  console.log(
    `Group commit bench, ${new Date().toISOString()} · ${cpus[0]?.model ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version} · ` +
      `SQLite ${sqliteVersion()}, WAL, synchronous=FULL, file in ${os.tmpdir()} · ${SECONDS} s per case and mode, ${ROUNDS} alternating rounds`,
  );
  console.log('');
  console.log('| case | group commit | appends/s | vs off | p50 | p99 | appends per commit |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const writers of [1, WRITERS]) {
    const label = writers === 1 ? 'one writer, one event per append' : `${writers} writers on ${writers} streams, one event per append`;
    // Alternating, each run on a new file; the rounds of one mode are added up.
    let off: Outcome = { appends: 0, seconds: 0, latencies: [], commits: 0 };
    let on: Outcome = off;
    const add = (a: Outcome, b: Outcome): Outcome => ({
      appends: a.appends + b.appends,
      seconds: a.seconds + b.seconds,
      latencies: [...a.latencies, ...b.latencies],
      commits: a.commits + b.commits,
    });
    for (let round = 0; round < ROUNDS; round++) {
      off = add(off, await run(false, writers, SECONDS / ROUNDS));
      on = add(on, await run(true, writers, SECONDS / ROUNDS));
    }
    console.log(row(label, 'off (one transaction per append)', off));
    console.log(row(label, 'on (default)', on, off));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

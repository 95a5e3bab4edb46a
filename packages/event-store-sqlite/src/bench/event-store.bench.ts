/**
 * SqliteEventStore vs InMemoryEventStore, side by side in one run:
 *   pnpm --filter @oneclaw/event-store-sqlite bench   (node dist/bench/event-store.bench.js)
 * (a) single-event appends with an exact expected revision; (b) reading and replaying a
 * 10,000-event session into the active tool set, the old path (every event) and the snapshot
 * path (F4: the latest snapshot and the events after it, as the server's cold load does);
 * (c) what writing one snapshot costs. Prints markdown tables for docs/.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  InMemoryEventStore,
  InMemorySnapshotStore,
  activeToolSet,
  deserializeEvent,
  type SerializedEvent,
  loadSessionState,
  sessionSnapshotOf,
  replay,
  sessionStreamId,
  type EventEnvelope,
  type EventStore,
  type SnapshotStore,
} from '@oneclaw/core';
import { appendBatches, longSession, longSessionCatalogue as catalogue } from '@oneclaw/core/testing/long-session';
import type { Task } from 'tinybench' with { 'resolution-mode': 'import' };
import Database from 'better-sqlite3';
import { SqliteEventStore } from '../sqlite-event-store';
import { sqliteVersion } from '../sqlite-version';

const SESSION_EVENTS = 10_000;
/** The server writes a snapshot every 500 events (ONECLAW_SNAPSHOT_EVERY): a cold load folds 0 to 499 after it. */
const SNAPSHOT_EVERY = 500;

function messageEvent(i: number): EventEnvelope {
  return {
    type: 'MessageSent',
    data: { messageId: `m${i}`, role: 'user', text: `Message ${i}: what is on my calendar tomorrow, and can you move the 3pm?` },
    metadata: { eventId: `bench:${i}`, occurredAt: new Date(Date.UTC(2026, 0, 1) + i).toISOString(), correlationId: `c${i}`, causationId: `c${i}`, schemaVersion: 1 },
  };
}

function appender(store: EventStore, streamId: string): () => Promise<void> {
  let revision: number | 'no_stream' = 'no_stream';
  let i = 0;
  return async () => {
    revision = (await store.append(streamId, [messageEvent(i++)], { expectedRevision: revision })).nextExpectedRevision;
  };
}

function duration(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`;
}

interface Row {
  readonly scenario: string;
  readonly store: string;
  readonly task: Task;
}

function table(rows: readonly Row[]): string {
  const lines = ['| case | store | p50 | p99 | ops/s | p50 vs memory |', '|---|---|---:|---:|---:|---:|'];
  for (const row of rows) {
    const result = row.task.result;
    if (!('latency' in result)) {
      lines.push(`| ${row.scenario} | ${row.store} | ${result.state}${'error' in result ? `: ${result.error.message}` : ''} | | | |`);
      continue;
    }
    const memory = rows.find((r) => r.scenario === row.scenario && r.store === 'memory')?.task.result;
    const ratio = memory && 'latency' in memory ? `${(result.latency.p50 / memory.latency.p50).toFixed(1)}×` : '';
    // Sequential throughput over the whole run, not the mean of per-sample rates (skewed by fast outliers).
    const opsPerSecond = (result.latency.samplesCount / result.totalTime) * 1000;
    lines.push(
      `| ${row.scenario} | ${row.store} | ${duration(result.latency.p50)} | ${duration(result.latency.p99)} | ${opsPerSecond.toFixed(opsPerSecond < 100 ? 1 : 0)} | ${ratio} |`,
    );
  }
  return lines.join('\n');
}

/** Each snapshot row against the old path on the same store, in the same run. */
function snapshotTable(rows: readonly Row[]): string {
  const lines = ['| case | store | p50 | p99 | p50 vs old path |', '|---|---|---:|---:|---:|'];
  for (const row of rows) {
    const result = row.task.result;
    if (!('latency' in result)) {
      lines.push(`| ${row.scenario} | ${row.store} | ${result.state}${'error' in result ? `: ${result.error.message}` : ''} | | |`);
      continue;
    }
    const old = rows.find((r) => r.store === row.store && r.scenario.startsWith('old path:'))?.task.result;
    const ratio = old && 'latency' in old ? `${(result.latency.p50 / old.latency.p50).toFixed(2)}×` : '';
    lines.push(`| ${row.scenario} | ${row.store} | ${duration(result.latency.p50)} | ${duration(result.latency.p99)} | ${ratio} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  // tinybench is ESM-only; import() is how a CommonJS build loads it.
  const { Bench } = await import('tinybench');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-bench-'));
  const sqlite = SqliteEventStore.open(path.join(dir, 'events.db'));
  const memory = new InMemoryEventStore();
  const stores: [string, EventStore][] = [
    ['sqlite', sqlite],
    ['memory', memory],
  ];
  let legacy: Database.Database | undefined;
  try {
    const append = new Bench({ time: 2000, warmupTime: 200 });
    for (const [name, store] of stores) append.add(`append:${name}`, appender(store, 'session-append'));

    const session = longSession('bench', SESSION_EVENTS);
    const streamId = sessionStreamId('bench');
    for (const [, store] of stores) await appendBatches(store, streamId, session);
    const snapshotStores: Record<string, SnapshotStore> = { sqlite: sqlite.snapshotStore(), memory: new InMemorySnapshotStore() };
    // Two snapshots per store, as the server could find them: at the last event (nothing to fold)
    // and SNAPSHOT_EVERY - 1 events behind it (the most a cold load folds between two snapshots).
    const all = await memory.readStream(streamId);
    const snapshotAt = (count: number) => sessionSnapshotOf(streamId, replay(all.slice(0, count)), all[count - 1]?.metadata.eventId as string, new Date());
    const behind = snapshotAt(SESSION_EVENTS - SNAPSHOT_EVERY + 1);
    const latest = snapshotAt(SESSION_EVENTS);
    const behindStreamId = `${streamId}-behind`;
    for (const [, store] of stores) await appendBatches(store, behindStreamId, session);
    for (const [name] of stores) {
      await snapshotStores[name]?.write(latest);
      await snapshotStores[name]?.write({ ...behind, streamId: behindStreamId });
    }

    // SqliteEventStore.readStream as it was before F4 (one object per row, stream id selected), on
    // a second connection to the same file: the baseline of the raw-rows read.
    legacy = new Database(path.join(dir, 'events.db'), { readonly: true });
    const legacyRead = legacy.prepare<[string], SerializedEvent>(
      'SELECT position, stream_id AS streamId, revision, type, data, metadata FROM events WHERE stream_id = ? AND revision >= 0 ORDER BY revision LIMIT -1',
    );

    const read = new Bench({ time: 3000, iterations: 10, warmupIterations: 3 });
    let sink = 0;
    read.add('replay-legacy:sqlite', () => {
      const state = replay(legacyRead.all(streamId).map(deserializeEvent));
      sink += state.eventCount + activeToolSet(state, catalogue).length;
    });
    for (const [name, store] of stores) {
      read.add(`read:${name}`, async () => {
        sink += (await store.readStream(streamId)).length;
      });
      read.add(`replay:${name}`, async () => {
        const state = replay(await store.readStream(streamId));
        sink += state.eventCount + activeToolSet(state, catalogue).length;
      });
      read.add(`snapshot-latest:${name}`, async () => {
        const loaded = await loadSessionState(store, snapshotStores[name], streamId);
        if (loaded.source !== 'snapshot') throw new Error(`the snapshot was not used: ${JSON.stringify(loaded.ignored)}`);
        sink += loaded.state.eventCount + activeToolSet(loaded.state, catalogue).length;
      });
      read.add(`snapshot-behind:${name}`, async () => {
        const loaded = await loadSessionState(store, snapshotStores[name], behindStreamId);
        if (loaded.source !== 'snapshot' || loaded.replayed !== SNAPSHOT_EVERY - 1) throw new Error(`the snapshot was not used as planned: ${loaded.replayed}`);
        sink += loaded.state.eventCount + activeToolSet(loaded.state, catalogue).length;
      });
    }
    const finalState = replay(all);
    const lastEventId = all.at(-1)?.metadata.eventId as string;
    const write = new Bench({ time: 2000, iterations: 10, warmupIterations: 3 });
    for (const [name] of stores) {
      write.add(`snapshot-write:${name}`, async () => {
        if (!(await snapshotStores[name]?.write(sessionSnapshotOf(streamId, finalState, lastEventId, new Date())))) throw new Error('snapshot refused');
      });
    }

    // Reads first: the append bench leaves ~100k events on the in-memory store's heap, and the
    // extra GC work would then be billed to the memory store's replay.
    await read.run();
    await write.run();
    await append.run();
    if (sink === 0) throw new Error('nothing was read');

    const task = (bench: InstanceType<typeof Bench>, name: string): Task => bench.getTask(name) as Task;
    const rows: Row[] = [];
    for (const [name] of stores) rows.push({ scenario: 'append 1 event, exact revision', store: name, task: task(append, `append:${name}`) });
    for (const [name] of stores) rows.push({ scenario: `readStream ${SESSION_EVENTS.toLocaleString('en')} events`, store: name, task: task(read, `read:${name}`) });
    for (const [name] of stores) {
      rows.push({ scenario: `readStream + replay + activeToolSet, ${SESSION_EVENTS.toLocaleString('en')} events`, store: name, task: task(read, `replay:${name}`) });
    }

    const n = SESSION_EVENTS.toLocaleString('en');
    const f4: Row[] = [];
    f4.push({
      scenario: `old path, readStream as before F4 (an object per row): + replay + activeToolSet, ${n} events`,
      store: 'sqlite',
      task: task(read, 'replay-legacy:sqlite'),
    });
    for (const [name] of stores) {
      f4.push({ scenario: `old path: readStream all + replay + activeToolSet, ${n} events`, store: name, task: task(read, `replay:${name}`) });
      f4.push({ scenario: `snapshot path: snapshot ${SNAPSHOT_EVERY - 1} events behind + catchUp + activeToolSet`, store: name, task: task(read, `snapshot-behind:${name}`) });
      f4.push({ scenario: 'snapshot path: snapshot at the last event + activeToolSet', store: name, task: task(read, `snapshot-latest:${name}`) });
      f4.push({ scenario: `writing one snapshot (encode + store), ${n} events`, store: name, task: task(write, `snapshot-write:${name}`) });
    }

    const cpus = os.cpus();
    console.log(
      `Event store bench, ${new Date().toISOString()} · ${cpus[0]?.model ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version} · ` +
        `SQLite ${sqliteVersion()}, WAL, synchronous=FULL, file in ${os.tmpdir()}`,
    );
    console.log();
    console.log(table(rows));
    console.log();
    console.log(`F4: a cold load of a ${n}-event session, old path vs snapshot path (snapshot of ${(latest.state.length / 1024 / 1024).toFixed(1)} MiB of JSON)`);
    console.log();
    console.log(snapshotTable(f4));
  } finally {
    legacy?.close();
    await sqlite.close();
    await memory.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * Issue 18: turns/s and latency with 1 vs 3 replicas on PostgreSQL, and SQLite vs PostgreSQL
 * with one replica, on the same workload; then a check that no event was lost.
 *   pnpm --filter @oneclaw/server bench   (… && node dist/bench/replicas.bench.js)
 *
 * Real server processes (dist/main.js), a real PostgreSQL started for the bench (Debian's
 * binaries, a temp dir, fsync on as by default), the instant FAKE model over loopback (a tool
 * call, then text: 2 model requests and one tool call per turn). A loop client keeps 50 sessions
 * busy, one turn at a time each, turn t of session s sent to replica (s + t) mod n. Each setup
 * runs ROUNDS times, interleaved (A B C A B C ...), and the medians are compared.
 *
 * Where the time goes: CPU seconds per turn of the server processes, of PostgreSQL (postmaster
 * and backends) and of this process (client + fake model), from /proc; and what PostgreSQL's
 * backends of the database were doing, sampled from pg_stat_activity (running, waiting for the
 * position-counter row lock of ADR 0014, waiting for the client, WAL flush).
 * Environment: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (3), BENCH_ROUNDS (2).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
// Not './testing': that one also brings describeWithPostgres, which needs Jest.
import { postgresBinDir, startTestPostgres, type TestPostgres } from '@oneclaw/event-store-postgres/testing/postgres';
import { ServerProcess } from '../testing/server-process';
import { instantModelServerEnv, startInstantModel, type InstantModel } from './instant-model';
import { readSessionEvents } from './read-session-events';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SESSIONS = 50;
const TOKEN = 'replicas-bench-token-0123456789';
const MESSAGE = 'What time is it in UTC?';
const CLOCK_TICKS = 100;

type Setup = 'sqlite-1' | 'postgres-1' | 'postgres-3';
const SETUPS: readonly Setup[] = ['sqlite-1', 'postgres-1', 'postgres-3'];
const LABEL: Record<Setup, string> = { 'sqlite-1': 'SQLite, 1 replica', 'postgres-1': 'PostgreSQL, 1 replica', 'postgres-3': 'PostgreSQL, 3 replicas' };

interface Run {
  readonly setup: Setup;
  readonly turns: number;
  readonly seconds: number;
  readonly p50: number;
  readonly p99: number;
  readonly failed: number;
  /** CPU ms per turn: server processes, PostgreSQL, this process (client + fake model). */
  readonly cpu: { readonly servers: number; readonly postgres: number; readonly bench: number };
  /** Share of sampled backend states (PostgreSQL runs only). */
  readonly backends?: ReadonlyMap<string, number>;
  readonly samples: number;
  /** Appends (position counter updates) per measured turn. */
  readonly commitsPerTurn?: number;
  readonly loss: LossCheck;
}

interface LossCheck {
  readonly answered: number;
  readonly finished: number;
  readonly lost: number;
  readonly duplicated: number;
  readonly revisionGaps: number;
  readonly positionsUnique: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = (sorted.length - 1) / 2;
  return ((sorted[Math.floor(mid)] as number) + (sorted[Math.ceil(mid)] as number)) / 2;
};
const percentile = (sorted: readonly number[], p: number) => (sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number));

/** utime + stime of a process, in ms (0 when it is gone). */
function cpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The postmaster and its children (backends, WAL writer, checkpointer...): their CPU ms together. */
function postgresCpuMs(postmaster: number | undefined): number {
  if (!postmaster) return 0;
  let total = cpuMs(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmaster) total += cpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function call(url: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url + route, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function startServers(setup: Setup, model: InstantModel, databaseUrl: string | undefined, dataDirs: string[]): Promise<ServerProcess[]> {
  const count = setup === 'postgres-3' ? 3 : 1;
  const servers = Array.from({ length: count }, (_, i) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `oneclaw-replicas-bench-${i}-`));
    dataDirs.push(dataDir);
    return new ServerProcess({
      ...instantModelServerEnv({ dataDir, apiToken: TOKEN, modelUrl: model.url }),
      ONECLAW_REPLICA_ID: `bench-${i}`,
      ...(databaseUrl ? { ONECLAW_POSTGRES_URL: databaseUrl } : {}),
    });
  });
  await Promise.all(servers.map((s) => s.url()));
  return servers;
}

/**
 * Samples what the database's backends are doing until `stop()`: counts per state, and the
 * appends made meanwhile. Each append is one transaction (ADR 0014), so the distinct transaction
 * ids (xmin) of the rows written between the positions at start and stop count the appends,
 * exactly and without the statistics collector's delay.
 */
function sampleBackends(cluster: TestPostgres, database: string) {
  const counts = new Map<string, number>();
  let samples = 0;
  let appends = 0;
  let stopped = false;
  const client = new pg.Client({ connectionString: cluster.url(database) });
  const lastPosition = async () => Number((await client.query<{ n: string }>('SELECT last_position AS n FROM oneclaw.event_positions')).rows[0]?.n ?? 0);
  const done = (async () => {
    await client.connect();
    try {
      const from = await lastPosition();
      while (!stopped) {
        const { rows } = await client.query<{ state: string | null; wait: string | null }>(
          `SELECT state, wait_event_type || ':' || wait_event AS wait FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
          [database],
        );
        samples += 1;
        for (const row of rows) {
          const key = row.state === 'active' ? (row.wait ? `active, waiting ${row.wait}` : 'active, running') : `${row.state ?? '?'}${row.wait ? ` (${row.wait})` : ''}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        await pause(20);
      }
      const to = await lastPosition();
      const { rows } = await client.query<{ n: string }>('SELECT count(DISTINCT xmin::text) AS n FROM oneclaw.events WHERE position > $1 AND position <= $2', [from, to]);
      appends = Number(rows[0]?.n ?? 0);
    } finally {
      await client.end();
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return { counts, samples, commits: appends };
    },
  };
}

async function runOnce(setup: Setup, model: InstantModel, cluster: TestPostgres | undefined, round: number): Promise<Run> {
  const dataDirs: string[] = [];
  const database = `bench_${setup.replace('-', '_')}_${round}`;
  const databaseUrl = setup === 'sqlite-1' ? undefined : await cluster?.createDatabase(database);
  const servers = await startServers(setup, model, databaseUrl, dataDirs);
  try {
    const urls = await Promise.all(servers.map((s) => s.url()));
    const ids = Array.from({ length: SESSIONS }, (_, i) => `${setup}-${round}-${i}`);
    for (const [i, sessionId] of ids.entries()) {
      const created = await call(urls[i % urls.length] as string, 'POST', '/api/sessions', { sessionId });
      if (created.status !== 201) throw new Error(`create session: ${created.status} ${JSON.stringify(created.body)}`);
    }
    const answered = new Map<string, string[]>(ids.map((id) => [id, []]));
    let failed = 0;
    let measuring = false;
    let stopped = false;
    const latencies: number[] = [];
    let measuredTurns = 0;
    const loop = Promise.all(
      ids.map(async (sessionId, s) => {
        for (let t = 0; !stopped; t++) {
          const url = urls[(s + t) % urls.length] as string;
          const began = performance.now();
          const counted = measuring;
          const answer = await call(url, 'POST', `/api/sessions/${sessionId}/messages`, { text: MESSAGE }).catch(() => ({ status: 0, body: undefined }));
          if (answer.status === 200 && answer.body?.reason === 'completed') {
            answered.get(sessionId)?.push(answer.body.turnId as string);
            if (counted && measuring) {
              latencies.push(performance.now() - began);
              measuredTurns += 1;
            }
          } else failed += 1;
        }
      }),
    );
    await pause(WARMUP_SECONDS * 1000);
    const cpuBefore = {
      servers: servers.reduce((sum, s) => sum + cpuMs(s.child.pid), 0),
      postgres: postgresCpuMs(cluster?.pid()),
      bench: process.cpuUsage(),
    };
    const sampler = databaseUrl && cluster ? sampleBackends(cluster, database) : undefined;
    measuring = true;
    const began = performance.now();
    await pause(SECONDS * 1000);
    measuring = false;
    const seconds = (performance.now() - began) / 1000;
    const turns = measuredTurns;
    const cpu = {
      servers: servers.reduce((sum, s) => sum + cpuMs(s.child.pid), 0) - cpuBefore.servers,
      postgres: postgresCpuMs(cluster?.pid()) - cpuBefore.postgres,
      bench: (() => {
        const used = process.cpuUsage(cpuBefore.bench);
        return (used.user + used.system) / 1000;
      })(),
    };
    const sampled = await sampler?.stop();
    stopped = true;
    await loop;
    const sorted = [...latencies].sort((a, b) => a - b);
    const loss = await checkLoss(urls[0] as string, ids, answered, databaseUrl);
    return {
      setup,
      turns,
      seconds,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      failed,
      cpu: { servers: cpu.servers / Math.max(1, turns), postgres: cpu.postgres / Math.max(1, turns), bench: cpu.bench / Math.max(1, turns) },
      ...(sampled ? { backends: sampled.counts } : {}),
      samples: sampled?.samples ?? 0,
      ...(sampled ? { commitsPerTurn: sampled.commits / Math.max(1, turns) } : {}),
      loss,
    };
  } finally {
    await Promise.all(servers.map((s) => s.kill()));
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** Every answered turn finished exactly once in its stream; revisions gapless; positions unique. */
async function checkLoss(url: string, ids: readonly string[], answered: ReadonlyMap<string, readonly string[]>, databaseUrl: string | undefined): Promise<LossCheck> {
  let total = 0;
  let finished = 0;
  let lost = 0;
  let duplicated = 0;
  let revisionGaps = 0;
  const positions = new Set<number>();
  let events = 0;
  for (const sessionId of ids) {
    const stream = await readSessionEvents((route) => call(url, 'GET', route), sessionId);
    stream.forEach((e, i) => {
      if (e.revision !== i) revisionGaps += 1;
      positions.add(e.position);
    });
    events += stream.length;
    const finishedTurns = stream.filter((e) => e.type === 'TurnFinished').map((e) => e.metadata.correlationId);
    finished += finishedTurns.length;
    for (const turnId of answered.get(sessionId) ?? []) {
      total += 1;
      const n = finishedTurns.filter((id) => id === turnId).length;
      if (n === 0) lost += 1;
      if (n > 1) duplicated += n - 1;
    }
  }
  void databaseUrl;
  return { answered: total, finished, lost, duplicated, revisionGaps, positionsUnique: positions.size === events };
}

function formatShares(counts: ReadonlyMap<string, number>): string {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([key, n]) => `${key} ${((100 * n) / Math.max(1, total)).toFixed(0)}%`)
    .join(', ');
}

async function main(): Promise<void> {
  if (!postgresBinDir()) {
    console.log('replicas bench skipped: PostgreSQL binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
    return;
  }
  const began = performance.now();
  const model = await startInstantModel();
  const cluster = await startTestPostgres({ settings: { max_connections: '200' } });
  const runs: Run[] = [];
  try {
    const version = await (async () => {
      const client = new pg.Client({ connectionString: cluster.url() });
      await client.connect();
      try {
        const { rows } = await client.query<{ v: string; fsync: string; sc: string }>(
          "SELECT current_setting('server_version') AS v, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sc",
        );
        return rows[0];
      } finally {
        await client.end();
      }
    })();
    const cpus = os.cpus();
    console.log(
      `## replicas bench (issue 18): ${cpus.length} × ${cpus[0]?.model ?? '?'}, Node ${process.version}, PostgreSQL ${version?.v} (fsync ${version?.fsync}, synchronous_commit ${version?.sc}), ` +
        `data in ${os.tmpdir()}; ${SESSIONS} sessions, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s measured, ${ROUNDS} round(s) interleaved, ${new Date().toISOString()}`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const setup of SETUPS) {
        const run = await runOnce(setup, model, cluster, round);
        runs.push(run);
        console.log(
          `round ${round + 1} ${LABEL[setup]}: ${(run.turns / run.seconds).toFixed(1)} turns/s, p50 ${run.p50.toFixed(0)} ms, p99 ${run.p99.toFixed(0)} ms, failed ${run.failed}, ` +
            `lost ${run.loss.lost}, duplicated ${run.loss.duplicated}`,
        );
      }
    }
    const stats = new Map(
      SETUPS.map((setup) => {
        const mine = runs.filter((r) => r.setup === setup);
        return [
          setup,
          {
            rate: median(mine.map((r) => r.turns / r.seconds)),
            p50: median(mine.map((r) => r.p50)),
            p99: median(mine.map((r) => r.p99)),
            cpuServers: median(mine.map((r) => r.cpu.servers)),
            cpuPostgres: median(mine.map((r) => r.cpu.postgres)),
            cpuBench: median(mine.map((r) => r.cpu.bench)),
          },
        ] as const;
      }),
    );
    console.log('');
    console.log('| setup | turns/s | p50 | p99 | CPU ms per turn: servers / PostgreSQL / client + fake |');
    console.log('|---|---:|---:|---:|---|');
    for (const setup of SETUPS) {
      const s = stats.get(setup);
      if (!s) continue;
      console.log(
        `| ${LABEL[setup]} | ${s.rate.toFixed(1)} | ${s.p50.toFixed(0)} ms | ${s.p99.toFixed(0)} ms | ${s.cpuServers.toFixed(2)} / ${s.cpuPostgres.toFixed(2)} / ${s.cpuBench.toFixed(2)} |`,
      );
    }
    const ratio = (a: Setup, b: Setup, key: 'rate' | 'p50' | 'p99') => ((stats.get(a)?.[key] ?? NaN) / (stats.get(b)?.[key] ?? NaN)).toFixed(2);
    console.log('');
    console.log(
      `3 vs 1 replica on PostgreSQL: ${ratio('postgres-3', 'postgres-1', 'rate')}× turns/s, ${ratio('postgres-3', 'postgres-1', 'p50')}× p50, ${ratio('postgres-3', 'postgres-1', 'p99')}× p99`,
    );
    console.log(
      `PostgreSQL vs SQLite, 1 replica: ${ratio('postgres-1', 'sqlite-1', 'rate')}× turns/s, ${ratio('postgres-1', 'sqlite-1', 'p50')}× p50, ${ratio('postgres-1', 'sqlite-1', 'p99')}× p99`,
    );
    for (const setup of ['postgres-1', 'postgres-3'] as const) {
      const merged = new Map<string, number>();
      for (const r of runs.filter((x) => x.setup === setup)) for (const [k, n] of r.backends ?? []) merged.set(k, (merged.get(k) ?? 0) + n);
      const mine = runs.filter((x) => x.setup === setup);
      const perTurn = median(mine.map((r) => r.commitsPerTurn ?? NaN));
      const commitsPerSecond = median(mine.map((r) => ((r.commitsPerTurn ?? NaN) * r.turns) / r.seconds));
      console.log(`${LABEL[setup]}, PostgreSQL backends of the database (sampled every ~20 ms): ${formatShares(merged)}`);
      console.log(
        `  ${perTurn.toFixed(1)} appends per turn, ${commitsPerSecond.toFixed(0)} appends/s: one append holds the position lock ~${(1000 / commitsPerSecond).toFixed(1)} ms on average (1 s / appends per s, as they go one at a time)`,
      );
    }
    const lost = runs.reduce((sum, r) => sum + r.loss.lost, 0);
    const duplicated = runs.reduce((sum, r) => sum + r.loss.duplicated, 0);
    const gaps = runs.reduce((sum, r) => sum + r.loss.revisionGaps, 0);
    const answered = runs.reduce((sum, r) => sum + r.loss.answered, 0);
    console.log(
      `loss check: ${answered} turns answered 200 across all runs (warm-up included), events lost ${lost}, duplicated turns ${duplicated}, revision gaps ${gaps}, ` +
        `positions unique in every run ${runs.every((r) => r.loss.positionsUnique)}`,
    );
    console.log(
      `note: ${cpus.length} cores are shared by the server processes, PostgreSQL, the client and the fake model: 3 replicas compete for the same cores; bench took ${((performance.now() - began) / 1000).toFixed(0)} s`,
    );
    if (lost > 0 || duplicated > 0 || gaps > 0) process.exitCode = 1;
  } finally {
    await cluster.close();
    await model.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

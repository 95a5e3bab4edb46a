/**
 * Memory (issue 17): the RSS of a real server process (`node dist/main.js`, a separate process)
 * after warm-up and after 10,000 turns, against the instant FAKE model over loopback HTTP.
 *   pnpm --filter @oneclaw/server bench   (… && node dist/bench/memory.bench.js)
 *
 * Workload: 50 sessions, 5 of them long (about 1,000 turns each), the rest about 110 turns each;
 * two in three turns call a tool (two model requests), one in three is a text turn (one
 * request); user messages of 20 to 1,500 characters; each turn sent as the web UI sends it
 * (SSE answer), and now and then the session list and a session view read, as the web UI does. Ten clients send at once, each turn to a session no
 * other client is using, the session picked at random weighted by the turns it has left, so
 * long and short sessions interleave until the end. The fake reports each request's input
 * tokens from its size, as a real model reports them, so the server compacts the long sessions
 * when they near the model's window (gpt-4o-mini, 128,000 tokens), as it would in use; the
 * compactions are counted from the sessions' events and printed. (Before 2026-11-26 the fake
 * reported 20 to 30 tokens for every request, and the long sessions' requests grew to a
 * megabyte, past any real window.)
 *
 * RSS is read from /proc/<pid>/status (VmRSS; VmHWM is the peak) after warm-up and after the
 * measured turns, and every 10 turns: one sample may fall just before or just after a garbage
 * collection, so the tops of the last 250 turns of each phase are compared too. The same workload runs against the server started as before this change
 * (the baseline) and as it starts now, side by side in the same run.
 * Environment: BENCH_MEMORY_TURNS (10000), BENCH_MEMORY_SESSIONS (50), BENCH_MEMORY_WARMUP
 * (turns per session before the first sample, 20), BENCH_MEMORY_CLIENTS (10),
 * BENCH_MEMORY_CONFIGS (which to run by index, e.g. "1" for now only; default all),
 * BENCH_MEMORY_NODE_ARGS (more node flags for every server, e.g. "--trace-gc"),
 * BENCH_MEMORY_LOG (a file for the servers' output).
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INSTANT_TEXT, INSTANT_TEXT_ONLY, instantModelServerEnv, startInstantModel, type InstantModel } from './instant-model';
import { ServerProcess } from '../testing/server-process';
import { readSessionEvents } from './read-session-events';
import { START_SCRIPT_PACKAGES, startScriptFlags } from './start-flags';
import { seededRandom } from './seeded-random';

const TURNS = Number(process.env.BENCH_MEMORY_TURNS ?? 10_000);
const SESSIONS = Number(process.env.BENCH_MEMORY_SESSIONS ?? 50);
const WARMUP_PER_SESSION = Number(process.env.BENCH_MEMORY_WARMUP ?? 20);
const CLIENTS = Number(process.env.BENCH_MEMORY_CLIENTS ?? 10);
const LONG_EVERY = 10;
const LONG_WEIGHT = 9;
const SAMPLES = 10;
const TOKEN = 'bench-memory-api-token-0123456789';
const MAIN = path.resolve(__dirname, '../main.js');

/** How a server process is started: node flags and extra environment. */
interface Configuration {
  readonly label: string;
  readonly nodeArgs: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** The node flags `pnpm start` runs the server with (its package's start script). */
const START_FLAGS = startScriptFlags(START_SCRIPT_PACKAGES.server);

const CONFIGURATIONS: readonly Configuration[] = [
  // Before issue 17: no node flags (V8's default heap limit, about a quarter of the machine's
  // memory up to 4 GB), and a session cache bounded by count only (1000 sessions), which an
  // unreachable byte bound gives back.
  { label: 'before: node dist/main.js, cache by count only', nodeArgs: [], env: { ONECLAW_SESSION_CACHE_BYTES: String(4 * 1024 * 1024 * 1024) } },
  { label: `now: node ${START_FLAGS.join(' ')} dist/main.js (pnpm start)`, nodeArgs: START_FLAGS, env: {} },
];

interface Memory {
  readonly rss: number;
  readonly peak: number;
}

function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

const WORDS = 'the quick brown fox jumps over a lazy dog while seven tired engineers measure memory of long running sessions'.split(' ');

function message(next: () => number, turn: number): string {
  const length = 20 + Math.floor(next() * 1480);
  const words: string[] = [];
  for (let n = 0; n < length; n += (words.at(-1)?.length ?? 0) + 1) words.push(WORDS[Math.floor(next() * WORDS.length)] as string);
  const text = `turn ${turn}: ${words.join(' ')}`.slice(0, length);
  return turn % 3 === 2 ? `${text} ${INSTANT_TEXT_ONLY}` : text;
}

/** Turns per session: long sessions weigh LONG_WEIGHT, the others 1; sums to `total` exactly. */
function plan(total: number): number[] {
  const weights = Array.from({ length: SESSIONS }, (_, i) => (i % LONG_EVERY === 0 ? LONG_WEIGHT : 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  const turns = weights.map((w) => Math.floor((total * w) / sum));
  for (let i = 0, left = total - turns.reduce((a, b) => a + b, 0); left > 0; i++, left--) turns[i % SESSIONS] = (turns[i % SESSIONS] as number) + 1;
  return turns;
}

class Api {
  constructor(readonly url: string) {}

  async call(method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(this.url + route, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** How many times the server compacted a session's conversation (its ConversationCompacted events). */
  async compactions(sessionId: string): Promise<number> {
    const events = await readSessionEvents((route) => this.call('GET', route), sessionId);
    return events.filter((e) => e.type === 'ConversationCompacted').length;
  }

  /** SendMessage as the web UI sends it (Accept: text/event-stream); the `done` event's result. */
  async turn(sessionId: string, text: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${this.url}/api/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ text }),
    });
    const stream = await response.text();
    const done = /^event: done\ndata: (.*)$/m.exec(stream)?.[1];
    return { status: response.status, body: done ? (JSON.parse(done) as Record<string, unknown>) : { stream: stream.slice(-300) } };
  }
}

interface Driver {
  /** Turns sent so far in the run (warm-up included). */
  sent: number;
  readonly turnsBySession: number[];
}

/** Sends `turns[i]` turns to session i with CLIENTS clients at once; `onTurn` after each answer. */
async function drive(api: Api, driver: Driver, turns: readonly number[], next: () => number, onTurn: (done: number) => void): Promise<void> {
  const left = [...turns];
  const busy = new Set<number>();
  let done = 0;
  const pick = (): number | undefined => {
    let total = 0;
    for (let i = 0; i < left.length; i++) if (!busy.has(i)) total += left[i] as number;
    if (total === 0) return undefined;
    let at = next() * total;
    for (let i = 0; i < left.length; i++) {
      if (busy.has(i) || left[i] === 0) continue;
      at -= left[i] as number;
      if (at < 0) return i;
    }
    return left.findIndex((n, i) => n > 0 && !busy.has(i));
  };
  const client = async (): Promise<void> => {
    for (let s = pick(); s !== undefined && s >= 0; s = pick()) {
      busy.add(s);
      left[s] = (left[s] as number) - 1;
      const turn = (driver.turnsBySession[s] = (driver.turnsBySession[s] as number) + 1);
      driver.sent += 1;
      const res = await api.turn(`s${s}`, message(next, turn));
      if (res.status !== 200 || res.body.reason !== 'completed' || res.body.reply !== INSTANT_TEXT) {
        throw new Error(`turn ${turn} of s${s}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      }
      // What the web UI reads besides the turn: the session list now and then, and a session view.
      if (driver.sent % 25 === 0) await api.call('GET', '/api/sessions');
      if (driver.sent % 10 === 0) await api.call('GET', `/api/sessions/s${s}`);
      busy.delete(s);
      done += 1;
      onTurn(done);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, () => client()));
}

interface Run {
  readonly configuration: Configuration;
  /** At the moment the warm-up ends, and after the last measured turn. */
  readonly warm: Memory;
  readonly end: Memory;
  /**
   * The highest RSS over the last WINDOW turns of the warm-up, and of the measured turns: the
   * tops of the garbage-collection sawtooth, steadier than one sample, which may fall just
   * before or just after a collection.
   */
  readonly warmTop: number;
  readonly endTop: number;
  /** RSS every TURNS / SAMPLES turns. */
  readonly curve: number[];
  /** The highest RSS seen during the measured turns. */
  readonly highest: number;
  readonly seconds: number;
  /** ConversationCompacted events in the long sessions, and in the others. */
  readonly compactions: { readonly long: number; readonly short: number };
}

/** RSS is sampled every SAMPLE_EVERY turns; the window tops span the last WINDOW turns. */
const SAMPLE_EVERY = 10;
const WINDOW = 250;

async function run(configuration: Configuration, model: InstantModel): Promise<Run> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-memory-'));
  const server = new ServerProcess(
    {
      ...instantModelServerEnv({ dataDir, apiToken: TOKEN, modelUrl: model.url }),
      ...configuration.env,
    },
    { main: MAIN, nodeArgs: [...configuration.nodeArgs, ...(process.env.BENCH_MEMORY_NODE_ARGS?.split(' ').filter(Boolean) ?? [])] },
  );
  const log = process.env.BENCH_MEMORY_LOG;
  if (log) {
    const out = createWriteStream(log);
    server.child.stdout.pipe(out);
    server.child.stderr.pipe(out);
  }
  try {
    const api = new Api(await server.url());
    const pid = server.child.pid as number;
    for (let s = 0; s < SESSIONS; s++) {
      const res = await api.call('POST', '/api/sessions', { sessionId: `s${s}` });
      if (res.status !== 201) throw new Error(`StartSession s${s}: HTTP ${res.status}`);
    }
    const next = seededRandom(17);
    const driver: Driver = { sent: 0, turnsBySession: Array.from({ length: SESSIONS }, () => 0) };
    const warmTurns = SESSIONS * WARMUP_PER_SESSION;
    let warmTop = 0;
    await drive(api, driver, Array<number>(SESSIONS).fill(WARMUP_PER_SESSION), next, (done) => {
      if (done % SAMPLE_EVERY === 0 && done > warmTurns - WINDOW) warmTop = Math.max(warmTop, memoryOf(pid).rss);
    });
    const warm = memoryOf(pid);
    warmTop = Math.max(warmTop, warm.rss);
    const curve: number[] = [];
    let highest = warm.rss;
    let endTop = 0;
    const began = performance.now();
    await drive(api, driver, plan(TURNS), next, (done) => {
      if (done % SAMPLE_EVERY !== 0) return;
      const rss = memoryOf(pid).rss;
      highest = Math.max(highest, rss);
      if (done > TURNS - WINDOW) endTop = Math.max(endTop, rss);
      if (done % Math.max(1, Math.floor(TURNS / SAMPLES)) === 0) curve.push(rss);
    });
    const seconds = (performance.now() - began) / 1000;
    const end = memoryOf(pid);
    const compactions = { long: 0, short: 0 };
    for (let s = 0; s < SESSIONS; s++) compactions[s % LONG_EVERY === 0 ? 'long' : 'short'] += await api.compactions(`s${s}`);
    return { configuration, warm, end, warmTop, endTop: Math.max(endTop, end.rss), curve, highest, seconds, compactions };
  } finally {
    await server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  console.log(
    `Memory over ${TURNS} turns, ${new Date().toISOString()} · ${cpus[0]?.model ?? 'unknown CPU'} · ${cpus.length} cores · ${mb(os.totalmem())} RAM · Node ${process.version}`,
  );
  const lengths = plan(TURNS);
  console.log(
    `${SESSIONS} sessions (${lengths.filter((_, i) => i % LONG_EVERY === 0).length} long of ~${Math.max(...lengths)} turns, the rest ~${Math.min(...lengths)}), ` +
      `${WARMUP_PER_SESSION} warm-up turns each first; 2 in 3 turns call a tool; ${CLIENTS} clients at once; real server process (dist/main.js, SQLite), instant FAKE model on loopback.`,
  );
  const only = process.env.BENCH_MEMORY_CONFIGS?.split(',');
  const model = await startInstantModel();
  const runs: Run[] = [];
  try {
    for (const configuration of CONFIGURATIONS.filter((c, i) => !only || only.includes(String(i)))) {
      const r = await run(configuration, model);
      runs.push(r);
      console.log(
        `${configuration.label}: RSS after warm-up ${mb(r.warm.rss)}, after ${TURNS} turns ${mb(r.end.rss)}, growth ${mb(r.end.rss - r.warm.rss)}, ` +
          `peak ${mb(r.end.peak)}; ${(TURNS / r.seconds).toFixed(0)} turns/s; compactions ${r.compactions.long} in the long sessions, ${r.compactions.short} in the others; RSS every ${TURNS / SAMPLES} turns: ${r.curve.map((b) => (b / (1024 * 1024)).toFixed(0)).join(' ')} MB`,
      );
    }
  } finally {
    await model.close();
  }
  const growth = (r: Run) => r.end.rss - r.warm.rss;
  const topGrowth = (r: Run) => r.endTop - r.warmTop;
  console.log('');
  console.log(
    `| server start | RSS after warm-up | RSS after ${TURNS} turns | growth | top of last ${WINDOW} warm-up turns → of last ${WINDOW} turns | growth of the tops | highest RSS in the turns | peak RSS (VmHWM) | turns/s |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of runs)
    console.log(
      `| ${r.configuration.label} | ${mb(r.warm.rss)} | ${mb(r.end.rss)} | **${mb(growth(r))}** | ${mb(r.warmTop)} → ${mb(r.endTop)} | **${mb(topGrowth(r))}** | ` +
        `${mb(r.highest)} | ${mb(r.end.peak)} | ${(TURNS / r.seconds).toFixed(0)} |`,
    );
  const [before, now] = runs;
  if (before && now) {
    const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');
    const limit = 64 * 1024 * 1024;
    console.log('');
    console.log(
      `growth now vs before: ${mb(growth(now))} vs ${mb(growth(before))} (${ratio(growth(now), growth(before))}); tops ${mb(topGrowth(now))} vs ${mb(topGrowth(before))} ` +
        `(${ratio(topGrowth(now), topGrowth(before))}); peak RSS ${mb(now.end.peak)} vs ${mb(before.end.peak)} (${ratio(now.end.peak, before.end.peak)})`,
    );
    console.log(
      `target, RSS after ${TURNS} turns within 64 MB of RSS after warm-up: ${growth(now) <= limit ? 'met' : 'NOT met'} by the samples, ` +
        `${topGrowth(now) <= limit ? 'met' : 'NOT met'} by the tops`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

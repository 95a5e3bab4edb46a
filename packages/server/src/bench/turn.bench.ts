/**
 * F5 (issues 5 and 17): turn overhead with a fake model that answers instantly (one tool call,
 * then text), and throughput with 50 concurrent sessions, then a check that no event was lost.
 *   pnpm --filter @oneclaw/server bench   (… && node dist/bench/turn.bench.js)
 *
 * Each part runs twice, side by side: "before F5" (the SQLite store with group commit off, one
 * append per command, the configuration read per lookup, the session view in every JSON answer;
 * see before-f5.ts) and "F5" (today's path), each in a fresh child process of its own, so neither
 * runs on the heap and the compiled code the other left (run in one process, F5 measured about 4%
 * slower after the old path than alone). Ratios are printed at the end.
 *
 * 1. Sequential turns over HTTP (POST /api/sessions/:id/messages, JSON mode) against a server
 *    booted with startTestServer (SQLite store in a temp dir, provider openai pointing at the
 *    instant fake), for both JS tool runners. Per turn the time is split into store, session
 *    repository, prompt/payload build, model call, tool engine and "HTTP + rest".
 * 2. The same turns through TurnRunner.run directly (no HTTP, no Nest): the in-process baseline.
 * 3. autocannon, 50 connections, each request on a session no other request is using, ~10 s;
 *    then every session's events are read back and checked against the answered turns.
 *    autocannon runs in a child process (load-generator.ts), as an outside load test would, so
 *    the server's main thread does the server's work only.
 * Environment: BENCH_TURNS (200), BENCH_WARMUP (20), BENCH_SECONDS (10), BENCH_RUNNERS
 * ("worker"; "in-process,worker" adds the in-process QuickJS runner), BENCH_VARIANTS ("before,f5"),
 * BENCH_LOAD_IN ("process"; "main" runs autocannon in the server's thread, as runs before
 * 2026-11-26 did), BENCH_ISOLATE ("1"; "0" runs every variant in this process, as before).
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import type { RecordedEvent } from '@oneclaw/core';
import { SqliteEventStore, sqliteVersion } from '@oneclaw/event-store-sqlite';
import { createBridgeHost, InProcessJsRunner, type ClosableBridgeHost, type JsRunner } from '@oneclaw/js-tools';
import { BUILTIN_JS_LIB_FOLDER } from '@oneclaw/tools-assets';
import { DEFAULT_AGENT_ID } from '../agents/agent-directory';
import { ConfigServices } from '../config/config-services';
import { createModelProvider } from '@oneclaw/model-providers';
import { SecretRedactor } from '../security/secret-redactor';
import { loadServerConfig, secretsOf } from '../server-config';
import { SessionRepository } from '../sessions/session-repository';
import { SessionIndex } from '../sessions/session-index';
import { startTestServer, TEST_API_TOKEN, type TestServer } from '../testing/test-server';
import { dataPaths } from '../tools/data-paths';
import { ScheduledTaskService } from '../scheduled-tasks/scheduled-task-service';
import { ToolRuntime } from '../tools/tool-runtime';
import { TurnRegistry } from '../turns/turn-registry';
import { CutOffTurns } from '../turns/cut-off-turns';
import { ServerIdentity } from '../turns/server-identity';
import { ConversationCompactor } from '../turns/conversation-compactor';
import { TurnRunner } from '../turns/turn-runner';
import { useBeforeF5Path } from './before-f5';
import { INSTANT_TEXT, startInstantModel, type InstantModel, type InstantModelStats } from './instant-model';
import { startLoadGenerator } from './load-generator';
import { readSessionEvents } from './read-session-events';
import { instrument, PartClock, PARTS, summarize, timedEventStore, type Part, type PartTimes, type Summary } from './part-clock';

const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TURNS_PER_SESSION = 20;
const CONNECTIONS = 50;
const MODEL_KEY = 'sk-bench-instant-model-key';
const MESSAGE = 'What time is it in UTC?';

type RunnerKind = 'in-process' | 'worker';
const RUNNER_LABEL: Record<RunnerKind, string> = { 'in-process': 'in-process QuickJS runner', worker: 'worker-thread runner (server default)' };
const RUNNERS = (process.env.BENCH_RUNNERS ?? 'worker').split(',').map((r) => r.trim()) as RunnerKind[];

/** A code path measured: today's, or the one before F5 put back (before-f5.ts). */
interface Variant {
  readonly id: 'before' | 'f5';
  readonly label: string;
  readonly groupCommit: boolean;
  /** Query string of every SendMessage: the old answer carried the session view. */
  readonly query: string;
  /** Puts the variant's code path in place; returns the undo. */
  readonly use: () => () => void;
}

const ALL_VARIANTS: readonly Variant[] = [
  {
    id: 'before',
    label: 'before F5 (group commit off, one append per command, config read per lookup, session view in the JSON answer)',
    groupCommit: false,
    query: '?include=session',
    use: useBeforeF5Path,
  },
  { id: 'f5', label: 'F5 (group commit, one append per durability point, one config catch-up, no view unless asked)', groupCommit: true, query: '', use: () => () => undefined },
];
const VARIANTS = (process.env.BENCH_VARIANTS ?? 'before,f5').split(',').map((id) => {
  const variant = ALL_VARIANTS.find((v) => v.id === id.trim());
  if (!variant) throw new Error(`BENCH_VARIANTS: unknown variant '${id}' (before, f5)`);
  return variant;
});

interface Turns {
  readonly totals: number[];
  readonly parts: PartTimes[];
  /** EventStore calls per timed turn, by method. */
  storeCalls?: string;
  /** JSON response bytes of a session's first and last timed turn (HTTP only). */
  bytes?: { first: number; last: number };
}

interface StoreCounters {
  readonly calls: Readonly<Record<string, number>>;
  readonly ms: Readonly<Record<string, number>>;
}

const storeCounters = (clock: PartClock): StoreCounters => ({ calls: { ...clock.storeCalls }, ms: { ...clock.storeMs } });

/** "7 append (2.10 ms) + 9 readStream (1.20 ms)": calls and time per turn, on average. */
function storeCallsPerTurn(clock: PartClock, before: StoreCounters, turns: number): string {
  return Object.entries(clock.storeCalls)
    .map(([method, n]) => [method, (n - (before.calls[method] ?? 0)) / turns, ((clock.storeMs[method] ?? 0) - (before.ms[method] ?? 0)) / turns] as const)
    .filter(([, n]) => n > 0)
    .map(([method, n, time]) => `${n.toFixed(n % 1 === 0 ? 0 : 1)} ${method} (${ms(time)})`)
    .join(' + ');
}

const ms = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : '–');
const tmp = (prefix: string): string => mkdtempSync(path.join(os.tmpdir(), prefix));

function serverEnv(model: InstantModel): Record<string, string> {
  return {
    ONECLAW_PROVIDER: 'openai',
    OPENAI_API_KEY: MODEL_KEY,
    OPENAI_BASE_URL: model.url,
    ONECLAW_PROVIDER_MAX_RETRIES: '0',
    // The default 600/min would answer 429 to a benchmark.
    ONECLAW_RATE_LIMIT_PER_MINUTE: '1000000',
  };
}

/** The in-process runner with the bridges the server would give the worker runner. */
function inProcessRunner(dataDir: string): { runner: JsRunner; host: ClosableBridgeHost } {
  const paths = dataPaths(dataDir);
  mkdirSync(paths.files, { recursive: true });
  const host = createBridgeHost({ filesRoot: paths.files, libraryFolders: [BUILTIN_JS_LIB_FOLDER, paths.userLib] });
  return { runner: new InProcessJsRunner(host), host };
}

// ---------------------------------------------------------------- HTTP helpers

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(base: string, route: string, body: unknown): Promise<{ status: number; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${route}`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${TEST_API_TOKEN}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function startSessionOverHttp(server: TestServer, sessionId: string): Promise<void> {
  const res = await post(server.url, '/api/sessions', { sessionId });
  if (res.status !== 201) throw new Error(`StartSession ${sessionId}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
}

function checkTurn(result: { reason?: string; reply?: string; rounds?: number }, where: string): void {
  if (result.reason !== 'completed' || result.reply !== INSTANT_TEXT || result.rounds !== 2) {
    throw new Error(`${where}: unexpected turn result ${JSON.stringify(result).slice(0, 300)}`);
  }
}

// ---------------------------------------------------------------- 1. sequential turns over HTTP

async function sequentialOverHttp(server: TestServer, clock: PartClock, tag: string, query: string): Promise<Turns> {
  let bytes = 0;
  const turn = async (sessionId: string): Promise<number> => {
    const started = performance.now();
    const res = await post(server.url, `/api/sessions/${sessionId}/messages${query}`, { text: MESSAGE });
    const elapsed = performance.now() - started;
    if (res.status !== 200) throw new Error(`SendMessage: HTTP ${res.status} ${res.text.slice(0, 300)}`);
    checkTurn(JSON.parse(res.text) as object, `turn over HTTP (${tag})`);
    bytes = Buffer.byteLength(res.text);
    return elapsed;
  };
  await startSessionOverHttp(server, `${tag}-warm`);
  for (let i = 0; i < WARMUP; i++) await turn(`${tag}-warm`);
  const out: Turns = { totals: [], parts: [] };
  const before = storeCounters(clock);
  const sizes = { first: 0, last: 0 };
  for (let s = 0; out.totals.length < TURNS; s++) {
    const sessionId = `${tag}-seq-${s}`;
    await startSessionOverHttp(server, sessionId);
    for (let t = 0; t < TURNS_PER_SESSION && out.totals.length < TURNS; t++) {
      clock.begin();
      const elapsed = await turn(sessionId);
      out.parts.push(clock.end());
      out.totals.push(elapsed);
      if (s === 0 && t === 0) sizes.first = bytes;
      if (s === 0) sizes.last = bytes;
    }
  }
  out.storeCalls = storeCallsPerTurn(clock, before, out.totals.length);
  out.bytes = sizes;
  return out;
}

// ---------------------------------------------------------------- 2. the same turns, TurnRunner called directly

async function sequentialDirect(kind: RunnerKind, model: InstantModel, clock: PartClock, groupCommit: boolean): Promise<Turns> {
  const dataDir = tmp('oneclaw-f5-direct-');
  const config = loadServerConfig({ ONECLAW_DATA_DIR: dataDir, ...serverEnv(model) });
  const inProcess = kind === 'in-process' ? inProcessRunner(dataDir) : undefined;
  const store = SqliteEventStore.open(path.join(dataDir, 'events.db'), { maxAppendBytes: config.maxAppendBytes, groupCommit });
  const redactor = new SecretRedactor();
  for (const secret of secretsOf(config)) redactor.add(secret);
  const provider = config.provider;
  if (!provider?.baseUrl) throw new Error('no provider configured');
  const configServices = ConfigServices.create({
    config,
    store,
    redactor,
    createClient: () => createModelProvider({ kind: 'openai', apiKey: MODEL_KEY, baseUrl: provider.baseUrl, maxRetries: 0 }),
  });
  // Never started: these turns schedule nothing, so its launcher is never asked to run a task.
  const scheduledTasks = new ScheduledTaskService({ store, launcher: { run: () => Promise.reject(new Error('no task runs in this benchmark')) }, timeZone: () => config.timeZone });
  const tools = ToolRuntime.start(config, { store, watchUserTools: false, config: configServices, scheduledTasks, redactor, ...(inProcess ? { runner: inProcess.runner } : {}) });
  await configServices.start(tools.registry);
  const timedStore = timedEventStore(store, clock);
  const sessions = new SessionRepository(timedStore, tools.registry);
  const turns = new TurnRegistry();
  const identity = new ServerIdentity(config.replicaId, config.turnSilenceLimitMs);
  const runner = new TurnRunner({
    sessions,
    tools,
    agents: configServices.agents,
    turns,
    redactor,
    models: configServices.models,
    toolEnv: () => configServices.envVars.toolEnv(),
    cutOffTurns: new CutOffTurns({ index: new SessionIndex(timedStore), sessions, turns, identity }),
    identity,
    maxAppendBytes: config.maxAppendBytes,
    compactor: new ConversationCompactor({ sessions, redactor }),
  });
  const start = (sessionId: string) => sessions.record(sessionId, { type: 'StartSession', sessionId, agentId: DEFAULT_AGENT_ID }, { commandId: `start-${sessionId}` });
  const turn = async (sessionId: string): Promise<number> => {
    const started = performance.now();
    const result = await runner.run({ sessionId, text: MESSAGE });
    const elapsed = performance.now() - started;
    checkTurn(result, `direct turn (${kind})`);
    return elapsed;
  };
  try {
    await start('warm');
    for (let i = 0; i < WARMUP; i++) await turn('warm');
    const out: Turns = { totals: [], parts: [] };
    const before = storeCounters(clock);
    for (let s = 0; out.totals.length < TURNS; s++) {
      await start(`seq-${s}`);
      for (let t = 0; t < TURNS_PER_SESSION && out.totals.length < TURNS; t++) {
        clock.begin();
        const elapsed = await turn(`seq-${s}`);
        out.parts.push(clock.end());
        out.totals.push(elapsed);
      }
    }
    out.storeCalls = storeCallsPerTurn(clock, before, out.totals.length);
    return out;
  } finally {
    await tools.close();
    await store.close();
    await inProcess?.host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- 3. throughput, then the loss check

interface Throughput {
  readonly result: autocannon.Result;
  /** Commits of the store during the main run, and the appends they carried. */
  readonly commits: { readonly commits: number; readonly appends: number };
  /**
   * During the main run (ms): the main thread's busy time (event loop active: running, or ready
   * and waiting for a core), its CPU time (Linux only, from /proc), the process's CPU time (all
   * threads), and the load generator's (its own process; undefined when it runs in the main thread).
   */
  readonly busy: { readonly activeMs: number; readonly mainCpuMs: number | undefined; readonly cpuMs: number; readonly loadCpuMs: number | undefined };
  /**
   * The main run measured here, from its first request built to its last answer: autocannon's
   * own `duration` ends at its next 1 s sample tick after the last answer, which made a 6.1 s run
   * and a 7.0 s run both "7 s" (throughput off by up to a seventh, and every run of a size the same).
   */
  readonly window: { readonly seconds: number; readonly answers: number };
  readonly turnsPerConnection: number;
  readonly check: LossCheck;
  readonly poolMisses: number;
  /** Latency of every request but each connection's first, timed from its setupRequest. */
  readonly steady: Summary;
}

interface LossCheck {
  readonly sessions: number;
  readonly answered: number;
  readonly turnsRecorded: number;
  readonly expectedEvents: number;
  readonly readBack: number;
  readonly lost: number;
  readonly extra: number;
  readonly revisionGaps: number;
  readonly turnsWithoutFinish: number;
  readonly malformedTurns: number;
  /** Distinct event patterns of the turns that did not match, with counts. */
  readonly oddPatterns: string;
}

/**
 * CPU time of this process's main thread so far (ms), from /proc/self/task/<pid>/stat (the main
 * thread's id is the process id): utime + stime in clock ticks, 10 ms each on Linux (a run of
 * several seconds makes that rounding small). Undefined where /proc is not there.
 */
function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (in parentheses, which may hold spaces): utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Where autocannon runs: its own process (default, as an outside load test), or the server's thread as before 2026-11-26. */
const LOAD_IN: 'process' | 'main' = process.env.BENCH_LOAD_IN === 'main' ? 'main' : 'process';

async function throughput(server: TestServer, tag: string, perTurn: readonly string[], query: string, commits: { commits: number; appends: number }): Promise<Throughput> {
  const ids = Array.from({ length: CONNECTIONS }, (_, i) => `${tag}-load-${i}`);
  for (const id of ids) await startSessionOverHttp(server, id);
  const load = await startLoadGenerator({ url: server.url, token: TEST_API_TOKEN, sessionIds: ids, query, message: MESSAGE }, LOAD_IN);
  try {
    // Each connection stops after a fixed number of answered requests, so none is cut off in
    // flight. First a warm-up run (the worker pool grows to 4 under load, and a new worker starts
    // cold), then a probe run that sizes the main run for ~SECONDS.
    await load.run(4 * CONNECTIONS);
    const probe = await load.run(4 * CONNECTIONS);
    const rate = probe.answers / (probe.elapsedMs / 1000 || 1);
    // A 4-request run is mostly ramp-up and ramp-down, so the main run goes faster than the probe
    // and ends somewhat before SECONDS; its own clock measures it either way.
    const perConnection = Math.max(4, Math.round((rate * SECONDS) / CONNECTIONS));
    const before = { ...commits };
    const loopBefore = performance.eventLoopUtilization();
    const cpuBefore = process.cpuUsage();
    const mainBefore = mainThreadCpuMs();
    const run = await load.run(perConnection * CONNECTIONS);
    const cpu = process.cpuUsage(cpuBefore);
    const mainAfter = mainThreadCpuMs();
    const busy = {
      activeMs: performance.eventLoopUtilization(loopBefore).active,
      mainCpuMs: mainBefore === undefined || mainAfter === undefined ? undefined : mainAfter - mainBefore,
      cpuMs: (cpu.user + cpu.system) / 1000,
      loadCpuMs: run.cpuMs,
    };
    const during = { commits: commits.commits - before.commits, appends: commits.appends - before.appends };
    const check = await checkEvents(server, ids, await load.answered(), perTurn);
    const window = { seconds: run.elapsedMs / 1000, answers: run.answers };
    return { result: run.result, commits: during, busy, window, turnsPerConnection: perConnection, check, poolMisses: await load.poolMisses(), steady: summarize([...run.steady]) };
  } finally {
    await load.close();
  }
}

function readEvents(server: TestServer, sessionId: string): Promise<RecordedEvent[]> {
  return readSessionEvents((route) => server.api('GET', route), sessionId);
}

async function checkEvents(server: TestServer, ids: readonly string[], answered: ReadonlyMap<string, number>, perTurn: readonly string[]): Promise<LossCheck> {
  let answeredTotal = 0;
  let turnsRecorded = 0;
  let expectedEvents = 0;
  let readBack = 0;
  let lost = 0;
  let extra = 0;
  let revisionGaps = 0;
  let turnsWithoutFinish = 0;
  let malformedTurns = 0;
  const odd = new Map<string, number>();
  for (const id of ids) {
    const events = await readEvents(server, id);
    const turns = answered.get(id) ?? 0;
    const expected = 1 + turns * perTurn.length;
    answeredTotal += turns;
    expectedEvents += expected;
    readBack += events.length;
    lost += Math.max(0, expected - events.length);
    extra += Math.max(0, events.length - expected);
    events.forEach((e, i) => {
      if (e.revision !== i) revisionGaps += 1;
    });
    if (events[0]?.type !== 'SessionStarted') malformedTurns += 1;
    const byTurn = new Map<string, string[]>();
    for (const e of events.slice(1)) {
      const key = e.metadata.correlationId ?? '?';
      byTurn.set(key, [...(byTurn.get(key) ?? []), e.type === 'TurnFinished' ? `TurnFinished:${String((e.data as { reason?: unknown }).reason)}` : e.type]);
    }
    turnsRecorded += byTurn.size;
    for (const types of byTurn.values()) {
      if (types.at(-1)?.startsWith('TurnFinished') !== true) turnsWithoutFinish += 1;
      if (types.join() !== perTurn.join()) {
        malformedTurns += 1;
        odd.set(types.join(' '), (odd.get(types.join(' ')) ?? 0) + 1);
      }
    }
  }
  const oddPatterns = [...odd].map(([pattern, n]) => `${n}× [${pattern}]`).join('; ');
  return { sessions: ids.length, answered: answeredTotal, turnsRecorded, expectedEvents, readBack, lost, extra, revisionGaps, turnsWithoutFinish, malformedTurns, oddPatterns };
}

/** The event types one turn records, read from the first warm-up turn. */
async function eventsOfOneTurn(server: TestServer, sessionId: string): Promise<string[]> {
  const events = await readEvents(server, sessionId);
  const first = events[1]?.metadata.correlationId;
  return events
    .filter((e) => e.metadata.correlationId === first)
    .map((e) => (e.type === 'TurnFinished' ? `TurnFinished:${String((e.data as { reason?: unknown }).reason)}` : e.type));
}

// ---------------------------------------------------------------- printing

const PART_LABEL: Record<Part, string> = {
  store: 'store (EventStore: SQLite appends + reads)',
  repository: 'session repository excl. store (decide, fold, queue)',
  prompt: 'prompt + payload build (ToolPayloads.build, prompt render, toChatMessages)',
  model: 'model call (loopback fake: encode, fetch, SSE decode)',
  engine: 'engine (executeAll: checks, validation, get_current_time in QuickJS)',
};

function splitTable(turns: Turns, restLabel: string): string[] {
  const sum = summarize(turns.totals);
  const lines = ['| part | p50 | p99 | share of total |', '|---|---:|---:|---:|'];
  const rest = turns.totals.map((total, i) => total - PARTS.reduce((a, p) => a + (turns.parts[i]?.[p] ?? 0), 0));
  const rows: [string, number[]][] = [...PARTS.map((p): [string, number[]] => [PART_LABEL[p], turns.parts.map((x) => x[p])]), [restLabel, rest]];
  for (const [label, samples] of rows) {
    const s = summarize(samples);
    lines.push(`| ${label} | ${ms(s.p50)} | ${ms(s.p99)} | ${((100 * s.total) / sum.total).toFixed(1)}% |`);
  }
  lines.push(`| **whole turn** | **${ms(sum.p50)}** | **${ms(sum.p99)}** | 100% |`);
  return lines;
}

// ---------------------------------------------------------------- main

interface Result {
  readonly variant: Variant;
  readonly kind: RunnerKind;
  readonly http: Turns;
  readonly direct: Turns;
  readonly tool: number[];
  cannon?: Throughput;
}

/** One variant with one runner: instrumented turns over HTTP and direct, then throughput on a fresh server. */
async function measure(variant: Variant, kind: RunnerKind, model: InstantModel, clock: PartClock): Promise<{ result: Result; perTurn: string[] }> {
  const undo = variant.use();
  try {
    // 1. over HTTP, instrumented
    const tag = `${variant.id}-${kind}`;
    const dataDir = tmp('oneclaw-f5-');
    const inProcess = kind === 'in-process' ? inProcessRunner(dataDir) : undefined;
    const sqlite = SqliteEventStore.open(path.join(dataDir, 'events.db'), { groupCommit: variant.groupCommit });
    const server = await startTestServer({ dataDir, env: serverEnv(model), eventStore: timedEventStore(sqlite, clock), ...(inProcess ? { toolRunner: inProcess.runner } : {}) });
    const restore = instrument(clock);
    let result: Result;
    let perTurn: string[];
    try {
      const httpTurns = await sequentialOverHttp(server, clock, tag, variant.query);
      perTurn = await eventsOfOneTurn(server, `${tag}-warm`);
      const events = (await Promise.all(Array.from({ length: Math.ceil(TURNS / TURNS_PER_SESSION) }, (_, s) => readEvents(server, `${tag}-seq-${s}`)))).flat();
      const tool = events.filter((e) => e.type === 'MessageSent' && 'durationMs' in (e.data as object)).map((e) => Number((e.data as { durationMs?: unknown }).durationMs));
      // 2. the same turns without HTTP and Nest
      const direct = await sequentialDirect(kind, model, clock, variant.groupCommit);
      result = { variant, kind, http: httpTurns, direct, tool };
    } finally {
      restore();
      await server.close();
      await sqlite.close();
      await inProcess?.host.close();
      rmSync(dataDir, { recursive: true, force: true });
    }

    // 3. throughput on a fresh server, not instrumented
    const loadDir = tmp('oneclaw-f5-load-');
    const loadRunner = kind === 'in-process' ? inProcessRunner(loadDir) : undefined;
    const commits = { commits: 0, appends: 0 };
    const loadStore = SqliteEventStore.open(path.join(loadDir, 'events.db'), {
      groupCommit: variant.groupCommit,
      onCommit: (appends) => {
        commits.commits += 1;
        commits.appends += appends;
      },
    });
    const loadServer = await startTestServer({ dataDir: loadDir, env: serverEnv(model), eventStore: loadStore, ...(loadRunner ? { toolRunner: loadRunner.runner } : {}) });
    try {
      await startSessionOverHttp(loadServer, 'ready');
      await post(loadServer.url, `/api/sessions/ready/messages${variant.query}`, { text: MESSAGE });
      result.cannon = await throughput(loadServer, tag, perTurn, variant.query, commits);
    } finally {
      await loadServer.close();
      await loadStore.close();
      await loadRunner?.host.close();
      rmSync(loadDir, { recursive: true, force: true });
    }
    return { result, perTurn };
  } finally {
    undo();
  }
}

/** Per turn: the whole turn minus the model call, i.e. what the server itself adds. */
const overhead = (turns: Turns): Summary => summarize(turns.totals.map((total, i) => total - (turns.parts[i]?.model ?? 0)));
const partSummary = (turns: Turns, part: Part): Summary => summarize(turns.parts.map((p) => p[part]));
const turnsPerSecond = (c: Throughput | undefined): number => (c ? c.window.answers / (c.window.seconds || 1) : NaN);

function printResult(r: Result, perTurn: readonly string[]): void {
  const http = summarize(r.http.totals);
  const direct = summarize(r.direct.totals);
  const tool = summarize(r.tool);
  console.log(`### ${r.variant.label}, ${RUNNER_LABEL[r.kind]}`);
  console.log('');
  console.log(`Turn over HTTP, split (per-turn sums; p50s do not add up, shares do):`);
  console.log('');
  for (const line of splitTable(r.http, 'HTTP + rest (Nest, guards, body check, GetSession view, JSON, client)')) console.log(line);
  const o = overhead(r.http);
  console.log(`| server overhead (whole turn minus the model call) | ${ms(o.p50)} | ${ms(o.p99)} | |`);
  console.log('');
  console.log(`Same turn through TurnRunner.run (no HTTP, no Nest), split:`);
  console.log('');
  for (const line of splitTable(r.direct, 'rest (agent loop, activeToolSet, redaction, awaits)')) console.log(line);
  console.log('');
  console.log(`EventStore calls per turn: over HTTP ${r.http.storeCalls ?? '?'}; direct ${r.direct.storeCalls ?? '?'}`);
  console.log(`tool durationMs recorded in the tool-result events: p50 ${tool.p50} ms, p99 ${tool.p99} ms (whole ms)`);
  if (r.http.bytes) console.log(`JSON response: ${r.http.bytes.first} bytes after turn 1, ${r.http.bytes.last} bytes after turn ${TURNS_PER_SESSION}`);
  console.log(
    `ours over HTTP vs in-process core loop: ${(http.p50 / direct.p50).toFixed(2)}× at p50 (${ms(http.p50)} vs ${ms(direct.p50)}), ` +
      `${(http.p99 / direct.p99).toFixed(2)}× at p99 (${ms(http.p99)} vs ${ms(direct.p99)}); HTTP + Nest add ${ms(http.p50 - direct.p50)} at p50`,
  );
  const c = r.cannon;
  if (c) {
    const res = c.result;
    console.log(
      `throughput, ${CONNECTIONS} connections, one session each at a time, ${c.turnsPerConnection} turns per connection: ` +
        `${turnsPerSecond(c).toFixed(1)} turns/s over ${c.window.seconds.toFixed(2)} s (${c.window.answers} answers, first request built to last answer; autocannon: ${res.requests.total} requests, ${res.duration.toFixed(1)} s to its next sample tick), ` +
        `latency p50 ${res.latency.p50} ms, p90 ${res.latency.p90} ms, p99 ${res.latency.p99} ms, max ${res.latency.max} ms, non-2xx ${res.non2xx}, errors ${res.errors}, timeouts ${res.timeouts}` +
        (c.poolMisses > 0 ? `, requests without a free session ${c.poolMisses}` : ''),
    );
    console.log(
      `  same run without each connection's first request (${c.steady.n} requests, timed from setupRequest to onResponse): ` +
        `p50 ${c.steady.p50.toFixed(0)} ms, p99 ${c.steady.p99.toFixed(0)} ms`,
    );
    console.log(
      `  store commits during the run: ${c.commits.commits} carrying ${c.commits.appends} appends (${(c.commits.appends / Math.max(1, c.commits.commits)).toFixed(1)} appends per commit, ` +
        `${(c.commits.commits / Math.max(1, c.window.answers)).toFixed(2)} commits per turn)`,
    );
    const perTurnMs = (total: number) => (total / Math.max(1, c.window.answers)).toFixed(2);
    console.log(
      `  main thread busy ${(100 * Math.min(1, c.busy.activeMs / (1000 * c.window.seconds))).toFixed(0)}% of the run (${perTurnMs(c.busy.activeMs)} ms per turn, ${LOAD_IN === 'main' ? 'autocannon included' : 'the server alone: autocannon runs in its own process'}); ` +
        `process CPU ${perTurnMs(c.busy.cpuMs)} ms per turn (all threads: server, fake model, JS workers${LOAD_IN === 'main' ? ', autocannon' : '; not autocannon'})`,
    );
    if (c.busy.mainCpuMs !== undefined && c.busy.loadCpuMs !== undefined) {
      const all = c.busy.cpuMs + c.busy.loadCpuMs;
      console.log(
        `  CPU per turn: main thread ${perTurnMs(c.busy.mainCpuMs)} ms (of its ${perTurnMs(c.busy.activeMs)} ms busy; the rest it waited for a core), ` +
          `the process's other threads (fake model, JS workers, GC, I/O) ${perTurnMs(c.busy.cpuMs - c.busy.mainCpuMs)} ms, load generator ${perTurnMs(c.busy.loadCpuMs)} ms; ` +
          `all ${perTurnMs(all)} ms: ${os.cpus().length} cores fully used would carry at most ${((os.cpus().length * 1000 * c.window.answers) / all).toFixed(0)} turns/s at this cost`,
      );
    }
    const k = c.check;
    console.log(
      `loss check over ${k.sessions} sessions (warm-up, probe and main runs): ${k.answered} turns answered 2xx, ${k.turnsRecorded} turns recorded, ` +
        `${k.expectedEvents} events expected, ${k.readBack} read back, revision gaps ${k.revisionGaps}, turns without TurnFinished ${k.turnsWithoutFinish}, ` +
        `turns not matching the ${perTurn.length}-event pattern ${k.malformedTurns}, extra events ${k.extra}`,
    );
    if (k.oddPatterns) console.log(`  turns not matching: ${k.oddPatterns.slice(0, 600)}`);
    console.log(`events lost: ${k.lost}`);
  }
  console.log('');
}

/** Today's path against the one before F5, per runner: the figures of issue 17 side by side. */
function printComparison(results: readonly Result[]): void {
  for (const kind of RUNNERS) {
    const before = results.find((r) => r.kind === kind && r.variant.id === 'before');
    const after = results.find((r) => r.kind === kind && r.variant.id === 'f5');
    if (!before || !after) continue;
    console.log(`### F5 vs before F5, ${RUNNER_LABEL[kind]} (same run)`);
    console.log('');
    console.log('| figure | before F5 | F5 | F5 / before |');
    console.log('|---|---:|---:|---:|');
    const row = (label: string, b: number, a: number, unit: (n: number) => string) => console.log(`| ${label} | ${unit(b)} | ${unit(a)} | ${(a / b).toFixed(2)}× |`);
    const plain = (digits: number) => (n: number) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
    row(`throughput, ${CONNECTIONS} sessions (turns/s)`, turnsPerSecond(before.cannon), turnsPerSecond(after.cannon), plain(1));
    row('latency under load p50 (ms)', before.cannon?.result.latency.p50 ?? NaN, after.cannon?.result.latency.p50 ?? NaN, plain(0));
    row('latency under load p99 (ms)', before.cannon?.result.latency.p99 ?? NaN, after.cannon?.result.latency.p99 ?? NaN, plain(0));
    row('latency under load p99 without first requests (ms)', before.cannon?.steady.p99 ?? NaN, after.cannon?.steady.p99 ?? NaN, plain(0));
    const commitsPerTurn = (r: Result) => (r.cannon ? r.cannon.commits.commits / Math.max(1, r.cannon.window.answers) : NaN);
    row('store commits (fsyncs) per turn under load', commitsPerTurn(before), commitsPerTurn(after), plain(2));
    const busyPerTurn = (r: Result) => (r.cannon ? r.cannon.busy.activeMs / Math.max(1, r.cannon.window.answers) : NaN);
    row('main thread busy per turn under load (ms)', busyPerTurn(before), busyPerTurn(after), plain(2));
    row('whole turn over HTTP, one at a time, p50', summarize(before.http.totals).p50, summarize(after.http.totals).p50, ms);
    row('server overhead of a turn (minus the model call), p50', overhead(before.http).p50, overhead(after.http).p50, ms);
    row('server overhead of a turn (minus the model call), p99', overhead(before.http).p99, overhead(after.http).p99, ms);
    for (const part of PARTS) row(`${part} per turn, p50`, partSummary(before.http, part).p50, partSummary(after.http, part).p50, ms);
    row('whole turn through TurnRunner.run, p50', summarize(before.direct.totals).p50, summarize(after.direct.totals).p50, ms);
    row(`JSON answer bytes after turn ${TURNS_PER_SESSION}`, before.http.bytes?.last ?? NaN, after.http.bytes?.last ?? NaN, plain(0));
    console.log('');
    console.log(`EventStore calls per turn over HTTP: before ${before.http.storeCalls ?? '?'}; F5 ${after.http.storeCalls ?? '?'}`);
    console.log(`events lost: before ${before.cannon?.check.lost ?? '?'}, F5 ${after.cannon?.check.lost ?? '?'}`);
    console.log('');
  }
}

async function main(): Promise<void> {
  const began = performance.now();
  const cpus = os.cpus();
  console.log(
    `F5 turn overhead, ${new Date().toISOString()} · ${cpus[0]?.model ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version} · ` +
      `SQLite ${sqliteVersion()} (WAL, synchronous=FULL, ${os.tmpdir()})`,
  );
  console.log(
    `fake model: OpenAI-compatible SSE on loopback, own worker thread; reply 1 = get_current_time call, reply 2 = "${INSTANT_TEXT}". ` +
      `${TURNS} turns after ${WARMUP} warm-up, ${TURNS_PER_SESSION} turns per session, JSON mode. Variants: ${VARIANTS.map((v) => v.id).join(', ')}; runners: ${RUNNERS.join(', ')}.`,
  );

  // Isolated, each child process starts its own fake model.
  const model = ISOLATE ? undefined : await startInstantModel();
  const clock = new PartClock();
  const results: Result[] = [];
  let perTurn: string[] = [];
  const fromChildren: InstantModelStats[] = [];
  try {
    for (const kind of RUNNERS) {
      for (const variant of VARIANTS) {
        const measured: { result: Result; perTurn: string[]; fake?: InstantModelStats } = model ? await measure(variant, kind, model, clock) : await measureInChild(variant, kind);
        results.push(measured.result);
        perTurn = measured.perTurn;
        if (measured.fake) fromChildren.push(measured.fake);
      }
    }
    const fake = [...(model ? [await model.stats()] : []), ...fromChildren].reduce((a, b) => ({
      replies: a.replies + b.replies,
      refused: a.refused + b.refused,
      workMs: a.workMs + b.workMs,
    }));
    console.log(`one turn records ${perTurn.length} events: ${perTurn.join(', ')}`);
    console.log('');
    for (const r of results) printResult(r, perTurn);
    printComparison(results);
    console.log(
      `fake model: ${fake.replies} replies, ${fake.refused} refused, its own work ${((1000 * fake.workMs) / Math.max(1, fake.replies)).toFixed(1)} µs per reply on average; ` +
        `bench took ${((performance.now() - began) / 1000).toFixed(0)} s`,
    );
  } finally {
    await model?.close();
    agent.destroy();
  }
}

/** Each variant in its own process (see the top of the file); BENCH_ISOLATE=0 keeps them in this one. */
const ISOLATE = process.env.BENCH_ISOLATE !== '0' && VARIANTS.length > 1;
const CHILD_ENV = 'ONECLAW_BENCH_TURN_CHILD';

interface ChildAnswer {
  readonly result?: Omit<Result, 'variant'> & { readonly variantId: string };
  readonly perTurn?: string[];
  readonly fake?: InstantModelStats;
  readonly error?: string;
}

/** Runs `measure` for one variant and runner in a fresh child process (this file, child mode). */
function measureInChild(variant: Variant, kind: RunnerKind): Promise<{ result: Result; perTurn: string[]; fake: InstantModelStats }> {
  const child = fork(__filename, [], { env: { ...process.env, [CHILD_ENV]: `${variant.id}:${kind}` }, serialization: 'advanced' });
  let answer: ChildAnswer = {};
  child.once('message', (message: ChildAnswer) => (answer = message));
  // Settled once the child is gone, so it cannot still be closing down while the next variant runs.
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (!answer.result || !answer.perTurn || !answer.fake)
        return reject(new Error(`turn bench child for ${variant.id}/${kind} (exit code ${code}): ${answer.error ?? 'no result'}`));
      const { variantId: _id, ...rest } = answer.result;
      resolve({ result: { ...rest, variant }, perTurn: answer.perTurn, fake: answer.fake });
    });
  });
}

/** Child mode: measure one variant with one runner, send the figures to the parent, print nothing. */
async function child(which: string): Promise<void> {
  const [id, kind] = which.split(':') as [string, RunnerKind];
  const variant = ALL_VARIANTS.find((v) => v.id === id);
  if (!variant) throw new Error(`unknown variant ${id}`);
  const model = await startInstantModel();
  try {
    const { result, perTurn } = await measure(variant, kind, model, new PartClock());
    const { variant: _variant, ...rest } = result;
    const answer: ChildAnswer = { result: { ...rest, variantId: variant.id }, perTurn, fake: await model.stats() };
    await new Promise<void>((resolve) => process.send?.(answer, () => resolve()));
  } finally {
    await model.close();
    agent.destroy();
    // The open IPC channel would keep this process alive until the parent ends.
    process.disconnect?.();
  }
}

const childOf = process.env[CHILD_ENV];
(childOf ? child(childOf) : main()).catch((error: unknown) => {
  console.error(error);
  if (childOf) process.send?.({ error: String(error) } satisfies ChildAnswer);
  process.exitCode = 1;
});

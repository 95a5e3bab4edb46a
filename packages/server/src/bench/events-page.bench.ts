/**
 * F4 (issue 17): GET /api/sessions/:id/events on a 10,000-event session, paged, against the
 * route's old work (every event in one answer). A real server (Nest, SQLite, loopback HTTP).
 *   pnpm --filter @oneclaw/server bench   (… && node dist/bench/events-page.bench.js)
 * Environment: BENCH_SAMPLES (30).
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  decide,
  deterministicIds,
  evolve,
  initialSessionState,
  sessionStreamId,
  type SessionCommand,
  type SessionEvent,
  type SessionState,
  type ToolCatalogue,
} from '@oneclaw/core';
import { SqliteEventStore, sqliteVersion } from '@oneclaw/event-store-sqlite';
import { startTestServer, type TestServer } from '../testing/test-server';
import { summarize } from './part-clock';

const EVENTS = 10_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);

const catalogue: ToolCatalogue = {
  coreToolNames: () => ['load_tool_group', 'read_file'],
  hasGroup: () => false,
  groupToolNames: () => [],
  groupNames: () => [],
  isToolEnabled: () => true,
};

/** The shape of the event-store bench's session: user, model request, tool call, result, reply, stop. */
async function seed(dataDir: string): Promise<void> {
  const store = SqliteEventStore.open(path.join(dataDir, 'events.db'), { maxAppendBytes: 64 * 1024 * 1024 });
  const history: SessionEvent[] = [];
  let state: SessionState = initialSessionState;
  let n = 0;
  const record = (command: SessionCommand): void => {
    if (history.length >= EVENTS) return;
    const events = decide(command, state, { now: () => new Date(Date.UTC(2026, 0, 1) + n * 1000), newId: deterministicIds(`c${n++}`), catalogue });
    for (const event of events) state = evolve(state, event);
    history.push(...events);
  };
  record({ type: 'StartSession', sessionId: 'bench', agentId: 'default' });
  for (let t = 0; history.length < EVENTS; t++) {
    record({ type: 'RecordUserMessage', messageId: `u${t}`, text: `Turn ${t}: please look through my files and summarise what changed since yesterday.` });
    record({ type: 'RecordModelRequest', provider: 'openai', model: 'm', toolNames: ['load_tool_group', 'read_file'], schemaTokens: 1800 });
    record({ type: 'RecordAssistantMessage', messageId: `a${t}`, text: '', toolCalls: [{ callId: `call${t}`, toolName: 'read_file', arguments: { path: `notes/${t}.md` } }] });
    record({ type: 'RecordToolResult', messageId: `r${t}`, callId: `call${t}`, toolName: 'read_file', durationMs: 12, status: 'success', result: 'x'.repeat(300) });
    record({ type: 'RecordAssistantMessage', messageId: `s${t}`, text: `Summary for turn ${t}: three files changed, nothing urgent.`, toolCalls: [] });
    record({ type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 2, usage: { inputTokens: 10, outputTokens: 5 } });
  }
  // In batches of one turn's size would take minutes of fsyncs; 1,000 events fit the append limit.
  let expectedRevision: number | 'no_stream' = 'no_stream';
  for (let i = 0; i < history.length; i += 1000) {
    expectedRevision = (await store.append(sessionStreamId('bench'), history.slice(i, i + 1000), { expectedRevision })).nextExpectedRevision;
  }
  await store.close();
}

async function measure(run: () => Promise<number>): Promise<{ p50: number; p99: number; bytes: number }> {
  let bytes = 0;
  for (let i = 0; i < 3; i++) await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    bytes = await run();
    samples.push(performance.now() - started);
  }
  const { p50, p99 } = summarize(samples);
  return { p50, p99, bytes };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-events-bench-'));
  let server: TestServer | undefined;
  try {
    await seed(dataDir);
    server = await startTestServer({ dataDir, env: { ONECLAW_RATE_LIMIT_PER_MINUTE: '1000000' } });
    const s = server;
    const get = async (query: string): Promise<{ bytes: number; next: number | null }> => {
      const res = await s.api('GET', `/api/sessions/bench/events${query}`);
      if (res.status !== 200) throw new Error(`GET events${query}: ${res.status} ${res.text.slice(0, 200)}`);
      return { bytes: Buffer.byteLength(res.text), next: (res.body as { nextRevision: number | null }).nextRevision };
    };
    // The old route's work in process: every event read and serialized as one JSON answer (no HTTP).
    const reader = SqliteEventStore.open(path.join(dataDir, 'events.db'), { readonly: true });
    const rows: [string, Awaited<ReturnType<typeof measure>>][] = [
      [
        `old route's work, in process: readStream all ${EVENTS.toLocaleString('en')} + JSON.stringify (no HTTP)`,
        await measure(async () => Buffer.byteLength(JSON.stringify({ sessionId: 'bench', events: await reader.readStream(sessionStreamId('bench')) }))),
      ],
      ['one page over HTTP, default (500 events)', await measure(async () => (await get('')).bytes)],
      ['one page over HTTP, limit=1000', await measure(async () => (await get('?limit=1000')).bytes)],
      ['one page over HTTP from revision 9,500 (500 events)', await measure(async () => (await get('?fromRevision=9500')).bytes)],
      [
        `every event over HTTP, following nextRevision (${EVENTS / 1000} pages of 1000; what the audit view reads)`,
        await measure(async () => {
          let bytes = 0;
          for (let from: number | null = 0; from !== null;) {
            const page = await get(`?fromRevision=${from}&limit=1000`);
            bytes += page.bytes;
            from = page.next;
          }
          return bytes;
        }),
      ],
    ];
    await reader.close();

    const cpus = os.cpus();
    console.log(
      `# F4: GET /api/sessions/:id/events, ${EVENTS.toLocaleString('en')}-event session\n\n${new Date().toISOString()} · ${cpus[0]?.model.trim() ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version} · SQLite ${sqliteVersion()} · ${SAMPLES} samples after 3 warm-up\n`,
    );
    const old = rows[0]?.[1].p50 ?? NaN;
    console.log("| case | p50 | p99 | bytes | p50 vs the old route's work |\n|---|---:|---:|---:|---:|");
    for (const [label, r] of rows) console.log(`| ${label} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.bytes.toLocaleString('en')} | ${(r.p50 / old).toFixed(2)}× |`);
  } finally {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

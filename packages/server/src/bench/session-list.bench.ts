/**
 * The session list's search (memory): what its search texts keep in the server's heap, and what
 * a search costs, for a store of many sessions. Today's texts (SQLite, outside the heap) side by
 * side with the ones before (a Map in the heap), each in a fresh child process (`node
 * --expose-gc`) over the same SQLite event store, through the same SessionIndex.
 *   pnpm --filter @oneclaw/server bench   (… && node dist/bench/session-list.bench.js)
 * Environment: BENCH_LIST_SESSIONS (5000 sessions of 20 messages, about 20 KB of text each:
 * more than the 16,000 characters kept).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { EventEnvelope } from '@oneclaw/core';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import { SessionIndex } from '../sessions/session-index';
import { childOrMain, measureInChild, ratioRow } from './gc-child';
import { summarize } from './part-clock';
import { seededRandom } from './seeded-random';
import { HeapSearchTexts } from './session-search-texts-before';

const SESSIONS = Number(process.env.BENCH_LIST_SESSIONS ?? 5_000);
const MESSAGES = 20;
const WORDS = ['lisbon', 'invoice', 'calendar', 'meeting', 'report', 'budget', 'travel', 'weekly', 'draft', 'kubernetes', 'porto', 'summary'];
/** One to three words: common ones, one in a single session, none at all. */
const QUERIES = ['lisbon', 'budget weekly', 'walrus', 'session 4711', 'meeting draft porto', 'nowhere', 'invoice', 'summary travel'];
const ROUNDS = 5;

interface Measured {
  readonly variant: string;
  /** Live heap (after a full collection) and RSS once the first list and search have read the store, over the same before them. */
  readonly heapMb: number;
  readonly rssMb: number;
  readonly firstListMs: number;
  readonly firstSearchMs: number;
  readonly searchP50Ms: number;
  readonly searchP99Ms: number;
  /** The longest the event loop could not run anything else during the searches. */
  readonly blockedMaxMs: number;
  readonly hits: number;
}

async function fill(file: string): Promise<void> {
  const next = seededRandom(17);
  const store = SqliteEventStore.open(file);
  const meta = (id: string, day: number) => ({
    eventId: id,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, day)).toISOString(),
    correlationId: id,
    causationId: id,
    schemaVersion: 1,
  });
  try {
    for (let s = 0; s < SESSIONS; s++) {
      const events: EventEnvelope[] = [{ type: 'SessionStarted', data: { sessionId: `s${s}`, agentId: 'default' }, metadata: meta(`s${s}`, s) }];
      for (let m = 0; m < MESSAGES; m++) {
        const role = m % 2 === 0 ? 'user' : 'assistant';
        const words = Array.from({ length: 140 }, () => WORDS[Math.floor(next() * WORDS.length)] as string);
        const text = `${m === 0 ? `session ${s}: ` : ''}${words.join(' ')}${s === SESSIONS - 1 && m === MESSAGES - 1 ? ' walrus' : ''}`;
        const id = `s${s}-m${m}`;
        events.push({ type: 'MessageSent', data: { messageId: id, role, text, ...(role === 'assistant' ? { toolCalls: [] } : {}) }, metadata: meta(id, s) });
      }
      await store.append(`session-s${s}`, events, { expectedRevision: 'no_stream' });
    }
  } finally {
    await store.close();
  }
}

/** In the child: open the store, read it with the first list and the first search, search again. */
async function child(variant: 'now' | 'before', file: string): Promise<Measured> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the child with --expose-gc');
  const store = SqliteEventStore.open(file, { readonly: true });
  const index = variant === 'now' ? new SessionIndex(store) : new SessionIndex(store, new HeapSearchTexts(store));
  try {
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    const rss0 = process.memoryUsage().rss;
    const began = performance.now();
    const all = (await index.list()).length;
    if (all !== SESSIONS) throw new Error(`${variant}: listed ${all} sessions, not ${SESSIONS}`);
    const firstListMs = performance.now() - began;
    const beganSearch = performance.now();
    let hits = (await index.list(QUERIES[0])).length;
    const firstSearchMs = performance.now() - beganSearch;
    gc();
    const heapMb = (process.memoryUsage().heapUsed - heap0) / (1024 * 1024);
    const rssMb = (process.memoryUsage().rss - rss0) / (1024 * 1024);
    const times: number[] = [];
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    for (let round = 0; round < ROUNDS; round++) {
      for (const query of QUERIES) {
        const start = performance.now();
        hits += (await index.list(query)).length;
        times.push(performance.now() - start);
        // Between requests, as a server has: the delay monitor sees each search's longest block.
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    delay.disable();
    const { p50, p99 } = summarize(times);
    return { variant, heapMb, rssMb, firstListMs, firstSearchMs, searchP50Ms: p50, searchP99Ms: p99, blockedMaxMs: delay.max / 1e6, hits };
  } finally {
    index.close();
    await store.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-list-bench-'));
  try {
    const file = path.join(dir, 'events.db');
    await fill(file);
    const before = await measureInChild<Measured>(__filename, 'BENCH_LIST_CHILD', { variant: 'before', file });
    const now = await measureInChild<Measured>(__filename, 'BENCH_LIST_CHILD', { variant: 'now', file });
    const cpus = os.cpus();
    console.log(`## The session list's search over ${SESSIONS.toLocaleString('en')} sessions of ${MESSAGES} messages, ${QUERIES.length * ROUNDS} searches after the first`);
    console.log('');
    console.log(`${new Date().toISOString()} · ${cpus[0]?.model ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version} · each variant in its own process`);
    console.log('');
    console.log('| | texts in the heap (before) | texts in SQLite (now) | now / before |');
    console.log('|---|---:|---:|---:|');
    console.log(ratioRow('live heap kept after the first search', before.heapMb, now.heapMb, 'MB'));
    console.log(ratioRow('RSS growth', before.rssMb, now.rssMb, 'MB'));
    console.log(ratioRow('first list (reads the store)', before.firstListMs, now.firstListMs, 'ms', 0));
    console.log(ratioRow('first search (reads the store into the texts)', before.firstSearchMs, now.firstSearchMs, 'ms', 0));
    console.log(ratioRow('a search after it, p50', before.searchP50Ms, now.searchP50Ms, 'ms', 1));
    console.log(ratioRow('a search after it, p99', before.searchP99Ms, now.searchP99Ms, 'ms', 1));
    console.log(ratioRow('longest event-loop block during the searches', before.blockedMaxMs, now.blockedMaxMs, 'ms', 1));
    console.log(`| sessions found over all searches | ${before.hits} | ${now.hits} | |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

childOrMain<{ variant: 'now' | 'before'; file: string }>('BENCH_LIST_CHILD', ({ variant, file }) => child(variant, file), main);

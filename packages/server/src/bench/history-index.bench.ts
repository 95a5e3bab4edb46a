/**
 * search_history's index (issue 17, memory): what it keeps in the server's heap once a search
 * has run, and what a search costs, for a store of many messages. Today's index (SQLite FTS5 in a
 * file of its own) side by side with the one before (minisearch, every document in the heap),
 * each in a fresh child process (`node --expose-gc`) over the same SQLite event store.
 *   pnpm --filter @oneclaw/server bench   (… && node dist/bench/history-index.bench.js)
 * Environment: BENCH_HISTORY_MESSAGES (20000 user and assistant messages over 50 sessions).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EventEnvelope } from '@oneclaw/core';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import { HistoryIndex, type HistoryQuery } from '../tools/builtin/core/history-index';
import { MemoryFile } from '../tools/builtin/core/memory-file';
import { MiniSearchHistoryIndex } from './history-index-before';
import { childOrMain, measureInChild, ratioRow } from './gc-child';
import { summarize } from './part-clock';
import { seededRandom } from './seeded-random';

const MESSAGES = Number(process.env.BENCH_HISTORY_MESSAGES ?? 20_000);
const SESSIONS = 50;
const VOCABULARY = 20_000;
const QUERIES = 40;

interface Measured {
  readonly variant: string;
  /** Live heap (after a full collection) and RSS once the first search has indexed the store, over the same before it. */
  readonly heapMb: number;
  readonly rssMb: number;
  readonly firstSearchMs: number;
  readonly searchP50Ms: number;
  readonly searchP99Ms: number;
  readonly hits: number;
}

/** A made-up language: VOCABULARY words of 3 to 10 letters, drawn by Zipf's law (the n-th most frequent word ∝ 1/n), as words in text are. */
function language(next: () => number): { readonly words: string[]; readonly draw: () => string } {
  const words = Array.from({ length: VOCABULARY }, () => {
    const length = 3 + Math.floor(next() * 8);
    return Array.from({ length }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join('');
  });
  const cumulative: number[] = [];
  let sum = 0;
  for (let n = 1; n <= VOCABULARY; n++) cumulative.push((sum += 1 / n));
  const draw = () => {
    const x = next() * sum;
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo] as string;
  };
  return { words, draw };
}

async function fill(file: string): Promise<string[]> {
  const next = seededRandom(11);
  const { words, draw } = language(next);
  const store = SqliteEventStore.open(file);
  try {
    const perSession = Math.ceil(MESSAGES / SESSIONS);
    for (let s = 0; s < SESSIONS; s++) {
      const events: EventEnvelope[] = [];
      for (let m = 0; m < perSession && s * perSession + m < MESSAGES; m++) {
        const role = m % 2 === 0 ? 'user' : 'assistant';
        const length = role === 'user' ? 40 + Math.floor(next() * 1200) : 200 + Math.floor(next() * 600);
        const text: string[] = [];
        for (let n = 0; n < length; n += (text.at(-1)?.length ?? 0) + 1) text.push(draw());
        const id = `s${s}-m${m}`;
        events.push({
          type: 'MessageSent',
          data: { messageId: id, role, text: text.join(' '), ...(role === 'assistant' ? { toolCalls: [] } : {}) },
          metadata: { eventId: id, occurredAt: new Date(Date.UTC(2026, 0, 1 + (m % 300))).toISOString(), correlationId: id, causationId: id, schemaVersion: 1 },
        });
      }
      await store.append(`session-s${s}`, events, { expectedRevision: 'no_stream' });
    }
  } finally {
    await store.close();
  }
  // Queries of one to three words: common and rare words, some with a letter changed.
  return Array.from({ length: QUERIES }, (_, q) =>
    Array.from({ length: 1 + (q % 3) }, () => {
      const word = words[Math.floor(next() * 5000)] as string;
      return q % 4 === 3 && word.length >= 5 ? `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}` : word;
    }).join(' '),
  );
}

/** In the child: open the store, index it with the first search, measure. */
async function child(variant: 'now' | 'before', file: string, queries: string[]): Promise<Measured> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the child with --expose-gc');
  const store = SqliteEventStore.open(file, { readonly: true });
  // A memory folder that does not exist: the memory file reads as empty.
  const memory = new MemoryFile({ folder: path.join(path.dirname(file), 'memory'), timeZone: 'UTC' });
  const options = { store, memory, timeZone: 'UTC' };
  const index = variant === 'now' ? new HistoryIndex(options) : new MiniSearchHistoryIndex(options);
  const query = (text: string): HistoryQuery => ({ query: text, scope: 'all', maxResults: 10 });
  try {
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    const rss0 = process.memoryUsage().rss;
    const began = performance.now();
    let hits = (await index.search(query(queries[0] as string))).length;
    const firstSearchMs = performance.now() - began;
    const times: number[] = [];
    for (const text of queries) {
      const start = performance.now();
      hits += (await index.search(query(text))).length;
      times.push(performance.now() - start);
    }
    gc();
    const mb = (bytes: number) => bytes / (1024 * 1024);
    const { p50, p99 } = summarize(times);
    return { variant, heapMb: mb(process.memoryUsage().heapUsed - heap0), rssMb: mb(process.memoryUsage().rss - rss0), firstSearchMs, searchP50Ms: p50, searchP99Ms: p99, hits };
  } finally {
    if (index instanceof HistoryIndex) index.close();
    await store.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-history-bench-'));
  try {
    const file = path.join(dir, 'events.db');
    const queries = await fill(file);
    const before = await measureInChild<Measured>(__filename, 'BENCH_HISTORY_CHILD', { variant: 'before', file, queries });
    const now = await measureInChild<Measured>(__filename, 'BENCH_HISTORY_CHILD', { variant: 'now', file, queries });
    const cpus = os.cpus();
    console.log(`## search_history's index over ${MESSAGES.toLocaleString('en')} messages (${SESSIONS} sessions), ${QUERIES} searches after the first`);
    console.log('');
    console.log(`${new Date().toISOString()} · ${cpus[0]?.model ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version} · each variant in its own process`);
    console.log('');
    console.log('| | minisearch in the heap (before) | SQLite FTS5 file (now) | now / before |');
    console.log('|---|---:|---:|---:|');
    console.log(ratioRow('live heap kept after the searches', before.heapMb, now.heapMb, 'MB'));
    console.log(ratioRow('RSS growth', before.rssMb, now.rssMb, 'MB'));
    console.log(ratioRow('first search (reads and indexes the store)', before.firstSearchMs, now.firstSearchMs, 'ms', 0));
    console.log(ratioRow('a search after it, p50', before.searchP50Ms, now.searchP50Ms, 'ms', 2));
    console.log(ratioRow('a search after it, p99', before.searchP99Ms, now.searchP99Ms, 'ms', 2));
    console.log(`| hits over all searches | ${before.hits} | ${now.hits} | |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

childOrMain<{ variant: 'now' | 'before'; file: string; queries: string[] }>('BENCH_HISTORY_CHILD', ({ variant, file, queries }) => child(variant, file, queries), main);

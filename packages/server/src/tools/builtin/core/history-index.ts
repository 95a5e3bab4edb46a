import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { EventStore, RecordedEvent } from '@oneclaw/core';
import { isSqliteError } from '@oneclaw/event-store-sqlite';
import type { MemoryFile } from './memory-file';
import { GlobalFollower } from '../../../persistence/global-follower';

export type HistoryScope = 'all' | 'memory' | 'sessions';

export interface HistoryQuery {
  readonly query: string;
  readonly scope: HistoryScope;
  /** Inclusive bounds, YYYY-MM-DD in the index's time zone. */
  readonly dateFrom?: string;
  readonly dateTo?: string;
  readonly maxResults: number;
  /**
   * The session asking: its messages since its last clear are left out, since the model already
   * has them in front of it (otherwise the question itself would be the best match).
   */
  readonly currentSessionId?: string;
}

export type HistoryHit =
  | { readonly kind: 'session'; readonly sessionId: string; readonly role: 'user' | 'assistant'; readonly date: string; readonly snippet: string; readonly score: number }
  | { readonly kind: 'memory'; readonly category: string; readonly date: string; readonly snippet: string; readonly score: number };

export interface HistoryIndexOptions {
  readonly store: EventStore;
  readonly memory: MemoryFile;
  /** Zone of the dates of events (default: the server's), the same as memory entry dates. */
  readonly timeZone?: string;
  /** Where the index file's own folder is made (default: the system's temporary folder). */
  readonly folder?: string;
}

interface DocRow {
  readonly text: string;
  readonly kind: 'session' | 'memory';
  readonly date: string;
  readonly session_id: string | null;
  readonly role: 'user' | 'assistant' | null;
  readonly category: string | null;
  readonly rank: number;
}

const STREAM_PREFIX = 'session-';
const SNIPPET_BEFORE = 80;
const SNIPPET_AFTER = 160;
/** A query is cut to this many distinct words, each to this many characters (the model writes the query). */
const MAX_TERMS = 32;
const MAX_TERM_LENGTH = 64;
/** Typos are looked for in at most this many of the query's words, with at most this many spellings each. */
const MAX_FUZZY_TERMS = 8;
const MAX_SPELLINGS = 16;

/**
 * Full-text search (SQLite FTS5, BM25) over what was said in every session (user and assistant
 * message texts) and over the memory file. Sessions are read from the event store's global
 * order incrementally, like the session list: each search first reads only the events appended
 * since the last one. Memory entries are re-indexed when the memory file changes.
 *
 * The index is a file, not a structure in the heap: it grows with every message of every session,
 * and in memory (minisearch until 2026-11-26) it held about 4 KB of heap per message once a
 * search had run, for as long as the server ran (memory.md, "The history search index"). It is a
 * cache of the store for this process: made in a folder of its own on the first search, filled
 * from the store, and deleted by `close()`. Nothing in it must survive (written without a journal
 * or fsync), and no other process shares it; a search that finds it broken makes a new one.
 */
export class HistoryIndex {
  private db: Database.Database | undefined;
  private dir: string | undefined;
  private readonly dates: Intl.DateTimeFormat;
  private follower!: GlobalFollower;
  /** Counts `close()` calls: a search or a read that began before one writes nothing after it. */
  private generation = 0;
  /** Per session, the position of its last SessionCleared: what comes after is the live conversation. */
  private readonly clearedAt = new Map<string, number>();
  private memoryVersion: string | undefined;
  /** Documents of the events read but not yet written: a page of the store goes in one transaction. */
  private pending: (readonly [text: string, date: string, sessionId: string, role: string, position: number])[] = [];

  constructor(private readonly options: HistoryIndexOptions) {
    this.follow();
    this.dates = new Intl.DateTimeFormat('en-CA', { timeZone: options.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  }

  async search(query: HistoryQuery): Promise<HistoryHit[]> {
    try {
      return await this.searchOnce(query);
    } catch (error) {
      if (!isSqliteError(error)) throw error;
      // The file broke or went away (a full disk, a cleaner of the temporary folder): it is only
      // a cache of the store, so a new one is made from the store and the search runs again.
      this.close();
      return await this.searchOnce(query);
    }
  }

  private async searchOnce(query: HistoryQuery): Promise<HistoryHit[]> {
    if (query.scope !== 'memory') {
      const generation = this.generation;
      await this.follower.catchUp();
      if (generation !== this.generation) return []; // closed meanwhile (the server is stopping)
      this.writePending();
    }
    if (query.scope !== 'sessions') this.refreshMemory();
    const terms = queryTerms(query.query);
    if (terms.length === 0) return [];
    const spellings = this.spellings(terms);
    const where = ['docs MATCH @match'];
    const params: Record<string, string | number> = { match: matchExpression(terms, spellings), limit: query.maxResults };
    if (query.scope !== 'all') {
      where.push('kind = @kind');
      params.kind = query.scope === 'memory' ? 'memory' : 'session';
    }
    if (query.dateFrom || query.dateTo) where.push("date <> ''");
    if (query.dateFrom) {
      where.push('date >= @dateFrom');
      params.dateFrom = query.dateFrom;
    }
    if (query.dateTo) {
      where.push('date <= @dateTo');
      params.dateTo = query.dateTo;
    }
    const live = query.currentSessionId;
    if (live !== undefined) {
      where.push("NOT (kind = 'session' AND session_id = @live AND position > @liveAfter)");
      params.live = live;
      params.liveAfter = this.clearedAt.get(live) ?? -1;
    }
    const rows = this.open()
      .prepare(`SELECT text, kind, date, session_id, role, category, bm25(docs) AS rank FROM docs WHERE ${where.join(' AND ')} ORDER BY rank LIMIT @limit`)
      .all(params) as DocRow[];
    const shown = [...terms, ...spellings.values()].flat();
    return rows.map((row) => toHit(row, shown));
  }

  /** Deletes the index file. A later search makes a new one and reads the store again. */
  close(): void {
    this.db?.close();
    this.db = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
    this.generation++;
    this.follow();
    this.clearedAt.clear();
    this.memoryVersion = undefined;
    this.pending = [];
  }

  private follow(): void {
    const generation = this.generation;
    this.follower = new GlobalFollower(this.options.store, (event) => {
      if (generation === this.generation) this.apply(event);
    });
  }

  private open(): Database.Database {
    if (this.db) return this.db;
    this.dir = mkdtempSync(path.join(this.options.folder ?? os.tmpdir(), 'oneclaw-history-'));
    const db = new Database(path.join(this.dir, 'history.db'));
    // A cache of the store for this process: nothing to recover after a crash.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(`
      CREATE VIRTUAL TABLE docs USING fts5(text, kind UNINDEXED, date UNINDEXED, session_id UNINDEXED, role UNINDEXED, category UNINDEXED, position UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE terms USING fts5vocab(docs, 'row');
    `);
    this.db = db;
    return db;
  }

  private apply(event: RecordedEvent): void {
    const read = historyEventOf(event);
    if (read === null) return;
    if (read.type === 'cleared') this.clearedAt.set(read.sessionId, event.position);
    else this.pending.push([read.text, this.dates.format(new Date(event.metadata.occurredAt)), read.sessionId, read.role, event.position]);
    if (this.pending.length >= 1000) this.writePending();
  }

  private writePending(): void {
    if (this.pending.length === 0) return;
    const db = this.open();
    const insert = db.prepare("INSERT INTO docs (text, kind, date, session_id, role, position) VALUES (?, 'session', ?, ?, ?, ?)");
    const docs = this.pending;
    this.pending = [];
    db.transaction(() => {
      for (const doc of docs) insert.run(...doc);
    })();
  }

  private refreshMemory(): void {
    const snapshot = this.options.memory.snapshot();
    if (snapshot.version === this.memoryVersion) return;
    const db = this.open();
    const insert = db.prepare("INSERT INTO docs (text, kind, date, category) VALUES (?, 'memory', ?, ?)");
    db.transaction(() => {
      db.prepare("DELETE FROM docs WHERE kind = 'memory'").run();
      for (const entry of snapshot.entries) insert.run(entry.text, entry.date, entry.category);
    })();
    this.memoryVersion = snapshot.version;
  }

  /**
   * Words of the index within a small edit distance of each query word of 5 letters or more
   * (one edit up to 9 letters, two from 10) that start with the same letter, closest first:
   * "kubernets" finds "kubernetes". FTS5 has no fuzzy match, so the candidates come from its list
   * of terms (fts5vocab), read by range: a whole scan of it cost 40 ms for 20,000 terms, one
   * letter's range about 2 ms. The first letter is kept as search engines do by default
   * (Lucene's and Elasticsearch's `prefix_length`): typos there are rare.
   */
  private spellings(terms: readonly string[]): Map<string, string[]> {
    const found = new Map<string, string[]>();
    const candidatesOf = this.open().prepare('SELECT term FROM terms WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?').pluck();
    for (const term of terms.filter((t) => [...t].length >= 5).slice(0, MAX_FUZZY_TERMS)) {
      const max = maxEdits(term);
      const length = [...term].length;
      const first = String.fromCodePoint(term.codePointAt(0) as number);
      const after = String.fromCodePoint((term.codePointAt(0) as number) + 1);
      const near: [string, number][] = [];
      for (const candidate of candidatesOf.all(first, after, length - max, length + max) as string[]) {
        if (candidate === term) continue;
        const distance = editDistance(term, candidate, max);
        if (distance <= max) near.push([candidate, distance]);
      }
      near.sort((a, b) => a[1] - b[1]);
      if (near.length > 0)
        found.set(
          term,
          near.slice(0, MAX_SPELLINGS).map(([t]) => t),
        );
    }
    return found;
  }
}

/** What the index takes from an event: a session's clear, or a user or assistant message's text (tool results are not indexed). */
export type HistoryEvent =
  { readonly type: 'cleared'; readonly sessionId: string } | { readonly type: 'message'; readonly sessionId: string; readonly role: 'user' | 'assistant'; readonly text: string };

export function historyEventOf(event: RecordedEvent): HistoryEvent | null {
  if (!event.streamId.startsWith(STREAM_PREFIX)) return null;
  const sessionId = event.streamId.slice(STREAM_PREFIX.length);
  if (event.type === 'SessionCleared') return { type: 'cleared', sessionId };
  if (event.type !== 'MessageSent') return null;
  const data = event.data as { role?: unknown; text?: unknown };
  if ((data.role !== 'user' && data.role !== 'assistant') || typeof data.text !== 'string' || data.text.trim() === '') return null;
  return { type: 'message', sessionId, role: data.role, text: data.text };
}

/** The query's distinct words, lower-cased and without diacritics, as the index's tokenizer (unicode61) splits them. */
export function queryTerms(query: string): string[] {
  const words = query
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '')
    .map((w) => [...w].slice(0, MAX_TERM_LENGTH).join(''));
  return [...new Set(words)].slice(0, MAX_TERMS);
}

/**
 * Any of the words, each as itself, by prefix from 3 letters, and in the spellings found for it.
 * A document with the exact word matches both the word and its prefix, so it ranks above one
 * that only starts with it. Every word is quoted: nothing in a query is FTS5 syntax.
 */
function matchExpression(terms: readonly string[], spellings: ReadonlyMap<string, readonly string[]>): string {
  const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;
  const parts: string[] = [];
  for (const term of terms) {
    parts.push(quote(term));
    if ([...term].length >= 3) parts.push(`${quote(term)}*`);
    for (const spelling of spellings.get(term) ?? []) parts.push(quote(spelling));
  }
  return parts.join(' OR ');
}

function maxEdits(term: string): number {
  return Math.floor([...term].length * 0.2);
}

/** Levenshtein distance, or `max + 1` as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      const value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1));
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[y.length] as number;
}

function toHit(row: DocRow, terms: readonly string[]): HistoryHit {
  const snippet = snippetOf(row.text, terms);
  // bm25() is lower for a better match; the hits carry it as a score, higher is better.
  const score = -row.rank;
  if (row.kind === 'memory') return { kind: 'memory', category: row.category ?? '', date: row.date, snippet, score };
  return { kind: 'session', sessionId: row.session_id ?? '', role: row.role ?? 'user', date: row.date, snippet, score };
}

/** The text around the first place a matched term occurs, on one line, with "…" where it was cut. */
export function snippetOf(text: string, terms: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const hits = terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0);
  const at = hits.length > 0 ? Math.min(...hits) : 0;
  let start = Math.max(0, at - SNIPPET_BEFORE);
  let end = Math.min(flat.length, at + SNIPPET_AFTER);
  // Cut at spaces, so no word is shown in halves.
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < at) start = space + 1;
  }
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > at) end = space;
  }
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

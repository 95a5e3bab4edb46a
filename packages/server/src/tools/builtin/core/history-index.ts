import type Database from 'better-sqlite3';
import { OneClawError, type EventStore, type RecordedEvent } from '@oneclaw/core';
import type { MemoryFile } from './memory-file';
import { openAnonymousDatabase, setUpOrClose } from '../../../persistence/anonymous-database';
import { CachePause } from '../../../persistence/cache-pause';
import { GlobalFollower } from '../../../persistence/global-follower';
import { historyEventOf } from '../../../sessions/history-event';

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
  /** Opens the connection an index is made in (default `openAnonymousDatabase`); tests watch it through this. */
  readonly openDatabase?: () => Database.Database;
  /** Milliseconds on a clock that never steps back (default `performance.now`): when a pause after failures ends (CachePause). */
  readonly now?: () => number;
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
 * The index is SQLite's anonymous temporary database, not a structure in the heap: it grows with
 * every message of every session, and in memory (minisearch until 2026-11-26) it held about 4 KB
 * of heap per message once a search had run, for as long as the server ran (memory.md, "The
 * history search index"). SQLite keeps its pages in a bounded cache and the rest in a file it
 * deletes as soon as it has opened it (in SQLITE_TMPDIR, TMPDIR or /var/tmp), so nothing is left
 * behind, even after a crash. It is a cache of the store for this process: rebuilt from the store
 * when it breaks, and closed for good by `close()`.
 */
export class HistoryIndex {
  private db: Database.Database | undefined;
  private readonly dates: Intl.DateTimeFormat;
  private follower!: GlobalFollower;
  /** Counts rebuilds: a search whose read spanned one reads again, into the new index. */
  private generation = 0;
  private stopped = false;
  /** Per session, the position of its last SessionCleared: what comes after is the live conversation. */
  private readonly clearedAt = new Map<string, number>();
  /**
   * Sessions deleted (SessionArchived): their rows are removed, and what they still record (the
   * rest of a turn that was running) is not indexed. A deleted session is gone for the user.
   */
  private readonly archived = new Set<string>();
  private memoryVersion: string | undefined;
  private readonly pause: CachePause;

  constructor(private readonly options: HistoryIndexOptions) {
    this.pause = new CachePause("search_history's index", 'Search again later.', options.now);
    this.follow();
    this.dates = new Intl.DateTimeFormat('en-CA', { timeZone: options.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  }

  async search(query: HistoryQuery): Promise<HistoryHit[]> {
    // The index breaks with a full disk or a damaged temporary file: CachePause makes it anew.
    return this.pause.run(
      () => this.searchOnce(query),
      () => this.rebuild(),
      this.stopped,
    );
  }

  /** Closes the index for good (the server is stopping): later searches answer `search_unavailable`. */
  close(): void {
    this.stopped = true;
    this.rebuild();
  }

  private async searchOnce(query: HistoryQuery): Promise<HistoryHit[]> {
    let db = this.open();
    if (query.scope !== 'memory') {
      // Another search's rebuild while this one read: read again, into the new index.
      for (let attempt = 0; ; attempt++) {
        const generation = this.generation;
        await this.follower.catchUp();
        db = this.open();
        if (generation === this.generation) break;
        if (attempt === 2) throw new OneClawError('search_unavailable', 'The search index was being rebuilt. Search again.');
      }
    }
    if (query.scope !== 'sessions') this.refreshMemory();
    const terms = queryTerms(query.query);
    if (terms.length === 0) return [];
    const where = ['docs MATCH @match'];
    const params: Record<string, string | number> = { limit: query.maxResults };
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
    const filters = where.join(' AND ');
    // Typos are looked for only in a word that, as written or by prefix, is in fewer messages than
    // asked for, within the scope, dates and session asked: reading candidate spellings is most of
    // a search's time, and near spellings of a word that fills the answer would only add other
    // words ("report" is not "resort").
    const found = db.prepare(`SELECT count(*) FROM (SELECT 1 FROM docs WHERE ${filters} LIMIT @limit)`).pluck();
    const rare = typoCandidates(terms).filter((term) => (found.get({ ...params, match: matchExpression([term]) }) as number) < query.maxResults);
    const spellings = this.spellings(rare);
    const rows = db
      .prepare(`SELECT coalesce(shown, text) AS text, kind, date, session_id, role, category, bm25(docs) AS rank FROM docs WHERE ${filters} ORDER BY rank LIMIT @limit`)
      .all({ ...params, match: matchExpression(terms, spellings) }) as DocRow[];
    // What a snippet is centred on: the words, a Chinese or Japanese run's pairs, the spellings found.
    const shown = [...terms.flatMap((term) => [term, ...pairsOf(charactersOf(term)).map((pair) => pair.join(''))]), ...[...spellings.values()].flat()];
    return rows.map((row) => toHit(row, shown));
  }

  /** Drops the index and everything read into it; the next search reads the store from the start. */
  private rebuild(): void {
    this.follower.stop();
    this.db?.close();
    this.db = undefined;
    this.generation++;
    this.clearedAt.clear();
    this.archived.clear();
    this.memoryVersion = undefined;
    if (!this.stopped) this.follow();
  }

  private follow(): void {
    this.follower = new GlobalFollower(this.options.store, (events) => this.applyPage(events));
  }

  /** Opened before anything is read into it, so a failure to open loses nothing already read. */
  private open(): Database.Database {
    if (this.stopped) throw new OneClawError('search_unavailable', 'The server is stopping, so search_history is closed. Search again once it has restarted.');
    if (this.db) return this.db;
    const db = (this.options.openDatabase ?? openAnonymousDatabase)();
    setUpOrClose(db, () => {
      // Letters, digits, private-use characters and marks make words: Indic and Thai words keep their vowel signs.
      // `text` is what is searched (Chinese and Japanese spaced, see `indexedText`); `shown`, the
      // message as written when that differs, is what a hit shows.
      db.exec(`
        CREATE VIRTUAL TABLE docs USING fts5(text, shown UNINDEXED, kind UNINDEXED, date UNINDEXED, session_id UNINDEXED, role UNINDEXED, category UNINDEXED, position UNINDEXED, tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'");
        CREATE VIRTUAL TABLE terms USING fts5vocab(docs, 'row');
      `);
    });
    this.db = db;
    return db;
  }

  /**
   * One page of the store's events: its messages go into the index, and the rows of sessions it
   * deletes go out, in one transaction. A rebuild reads the store from the start, so a deleted
   * session's messages are dropped again when its SessionArchived is read (within the page, before
   * they are written).
   */
  private applyPage(events: readonly RecordedEvent[]): void {
    let docs: (readonly [text: string, shown: string | null, date: string, sessionId: string, role: string, position: number])[] = [];
    const deleted: string[] = [];
    for (const event of events) {
      const read = historyEventOf(event);
      if (read === null || this.archived.has(read.sessionId)) continue;
      if (read.type === 'cleared') this.clearedAt.set(read.sessionId, event.position);
      else if (read.type === 'archived') {
        this.archived.add(read.sessionId);
        this.clearedAt.delete(read.sessionId);
        deleted.push(read.sessionId);
        docs = docs.filter((doc) => doc[3] !== read.sessionId);
      } else docs.push([...indexedText(read.text), this.dates.format(new Date(event.metadata.occurredAt)), read.sessionId, read.role, event.position]);
    }
    if (docs.length === 0 && deleted.length === 0) return;
    const db = this.open();
    const insert = db.prepare("INSERT INTO docs (text, shown, kind, date, session_id, role, position) VALUES (?, ?, 'session', ?, ?, ?, ?)");
    // session_id is not indexed (FTS5 columns are not): one pass over the rows for all of a page's deletions.
    const remove = db.prepare("DELETE FROM docs WHERE kind = 'session' AND session_id IN (SELECT value FROM json_each(?))");
    db.transaction(() => {
      if (deleted.length > 0) remove.run(JSON.stringify(deleted));
      for (const doc of docs) insert.run(...doc);
    })();
  }

  private refreshMemory(): void {
    const snapshot = this.options.memory.snapshot();
    if (snapshot.version === this.memoryVersion) return;
    const db = this.open();
    const insert = db.prepare("INSERT INTO docs (text, shown, kind, date, category) VALUES (?, ?, 'memory', ?, ?)");
    db.transaction(() => {
      db.prepare("DELETE FROM docs WHERE kind = 'memory'").run();
      for (const entry of snapshot.entries) insert.run(...indexedText(entry.text), entry.date, entry.category);
    })();
    this.memoryVersion = snapshot.version;
  }

  /**
   * Words of the index within a small edit distance of each given word (`typoCandidates`: 5 letters or more)
   * (one edit per five letters, rounded: 1 for 5 to 7 letters, 2 for 8 to 12, at most 3) that
   * start with the same letter, closest first: "kubernets" finds "kubernetes". FTS5 has no fuzzy
   * match, so the candidates come from its list of terms (fts5vocab), read by range: a whole scan
   * of it cost 40 ms for 20,000 terms, one letter's range about 2 ms. The first letter is kept as
   * search engines do by default (Lucene's and Elasticsearch's `prefix_length`): typos there are
   * rare. The list holds words as the tokenizer folds them (no Latin diacritics), so the query
   * word is folded the same way first.
   */
  private spellings(terms: readonly string[]): Map<string, string[]> {
    const found = new Map<string, string[]>();
    const candidatesOf = this.open().prepare('SELECT term FROM terms WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?').pluck();
    for (const term of terms) {
      const folded = foldLatin(term);
      const max = maxEdits(folded);
      const length = [...folded].length;
      const first = folded.codePointAt(0) as number;
      const near: [string, number][] = [];
      for (const candidate of candidatesOf.all(String.fromCodePoint(first), String.fromCodePoint(first + 1), length - max, length + max) as string[]) {
        if (candidate === folded) continue;
        const distance = editDistance(folded, candidate, max);
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

/** The words typos are looked for in: at most 8, of 5 letters or more, not Chinese or Japanese. */
function typoCandidates(terms: readonly string[]): string[] {
  return terms.filter((t) => [...t].length >= 5 && !UNSPACED.test(t)).slice(0, MAX_FUZZY_TERMS);
}

/**
 * The query's distinct words, as the index's tokenizer splits text (letters, digits, private-use
 * characters and marks make words), in NFC and lower case. Folding diacritics is left to FTS5,
 * which tokenizes each quoted word as it tokenized the messages.
 */
export function queryTerms(query: string): string[] {
  const words = query
    .normalize('NFC')
    .toLowerCase()
    .replaceAll(BARRIER, ' ')
    .split(/[^\p{L}\p{N}\p{Co}\p{M}]+/u)
    .filter((w) => w !== '')
    .map((w) => [...w].slice(0, MAX_TERM_LENGTH).join(''));
  return [...new Set(words)].slice(0, MAX_TERMS);
}

/** Lower case without the diacritics of Latin letters, as FTS5's unicode61 tokenizer (remove_diacritics 2) folds them. */
export function foldLatin(text: string): string {
  return text
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase();
}

/** Han, Hiragana and Katakana: scripts written without spaces between words. */
const UNSPACED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]/u;
/** In a text of those scripts: each of their characters, and anything the tokenizer does not keep (punctuation, symbols). */
const SPACED_OR_DROPPED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]|[^\p{L}\p{N}\p{Co}\p{M}\s]/gu;
/** What the tokenizer keeps as part of a word. */
const WORD_CHARACTER = /[\p{L}\p{N}\p{Co}\p{M}]/u;
/**
 * Stands in the index for punctuation in a text of those scripts (。，、「」！…), which the
 * tokenizer would drop: a word of its own (a private-use character, taken out of queries), so
 * `北京` does not match across `台北，京都`.
 */
const BARRIER = '\uE000';

/** Each character of those scripts a word of its own; punctuation a barrier word. */
function spaceUnspaced(text: string): string {
  return text.replace(SPACED_OR_DROPPED, (char) => ` ${WORD_CHARACTER.test(char) && char !== BARRIER ? char : BARRIER} `);
}

/** The characters of a Chinese or Japanese query word, one per index word (none for another word). */
function charactersOf(term: string): string[] {
  return UNSPACED.test(term) ? spaceUnspaced(term).trim().split(/\s+/) : [];
}

/** A Chinese or Japanese run of three characters or more (`charactersOf`): its overlapping pairs. */
function pairsOf(chars: readonly string[]): [string, string][] {
  return chars.length > 2 ? chars.slice(1).map((char, i): [string, string] => [chars[i] as string, char]) : [];
}

/**
 * What the index searches for a text, and what a hit shows when that differs. FTS5's unicode61
 * tokenizer splits words at spaces and punctuation, so a Chinese or Japanese sentence would be
 * one word and `設定` would not find `データベースの設定を変更しました`. Each of their characters is
 * indexed as a word of its own instead. A query's run of them is searched as a phrase (those
 * characters next to each other) and as its overlapping pairs of characters, so `データベース設定`
 * still finds `データベースの設定`, below a message that holds the whole run. Korean is written with
 * spaces and needs nothing (its particles are found by prefix).
 */
export function indexedText(text: string): [indexed: string, shown: string | null] {
  const nfc = text.normalize('NFC');
  return UNSPACED.test(nfc) ? [spaceUnspaced(nfc), nfc] : [nfc, null];
}

/**
 * Any of the words, each as itself, by prefix from 3 letters, and in the spellings found for it;
 * a Chinese or Japanese word as the phrase of its characters (`indexedText`).
 * A document with the exact word matches both the word and its prefix, so it ranks above one
 * that only starts with it. Every word is quoted: nothing in a query is FTS5 syntax.
 */
function matchExpression(terms: readonly string[], spellings: ReadonlyMap<string, readonly string[]> = new Map()): string {
  const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;
  const parts: string[] = [];
  for (const term of terms) {
    // Chinese or Japanese: its characters in a row, and each pair of them (see `indexedText`).
    const chars = charactersOf(term);
    if (chars.length > 0) {
      parts.push(quote(chars.join(' ')));
      for (const pair of pairsOf(chars)) parts.push(quote(pair.join(' ')));
      continue;
    }
    parts.push(quote(term));
    if ([...term].length >= 3) parts.push(`${quote(term)}*`);
    for (const spelling of spellings.get(term) ?? []) parts.push(quote(spelling));
  }
  return parts.join(' OR ');
}

function maxEdits(term: string): number {
  return Math.min(3, Math.round([...term].length * 0.2));
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

/**
 * The text around the first place a matched term occurs, on one line, with "…" where it was cut.
 * Text and terms are compared folded (`foldLatin`), so "cafe" shows the "Café" it matched.
 */
export function snippetOf(text: string, terms: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  // The folded text, and for each of its UTF-16 units the index in `flat` it came from.
  // ASCII text folds to its lower case, one unit for one (most messages; folding each character
  // of a long text cost milliseconds per hit).
  const ascii = /^[\x00-\x7f]*$/.test(flat);
  let folded = ascii ? flat.toLowerCase() : '';
  const from: number[] = [];
  let index = 0;
  if (!ascii) {
    for (const char of flat) {
      const f = char < '\x80' ? char.toLowerCase() : foldLatin(char);
      for (let k = 0; k < f.length; k++) from.push(index);
      folded += f;
      index += char.length;
    }
  }
  const hits = terms.map((t) => folded.indexOf(foldLatin(t))).filter((i) => i >= 0);
  const first = hits.length > 0 ? Math.min(...hits) : 0;
  const at = ascii ? first : hits.length > 0 ? (from[first] as number) : 0;
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

import type Database from 'better-sqlite3';
import { OneClawError, type EventStore, type RecordedEvent } from '@oneclaw/core';
import { openAnonymousDatabase, setUpOrClose } from '../persistence/anonymous-database';
import { CachePause } from '../persistence/cache-pause';
import { GlobalFollower } from '../persistence/global-follower';
import { historyEventOf } from './history-event';

/** Characters of a session's message text kept from its start, and from its latest messages, for list search. */
export const SEARCH_HEAD_CHARS = 8_000;
export const SEARCH_TAIL_CHARS = 8_000;

/**
 * Sessions a search scans before it lets other work run: the scan is synchronous, about 3 ns a
 * byte of up to 16 KB a session for each word no session has, so a page holds the event loop
 * for about 12 ms a word (5,000 sessions in one scan held every turn and stream of the server
 * for 100 ms and more).
 */
export const SEARCH_PAGE_ROWS = 250;

/** What is kept of one session's messages: their start and their latest part. */
export interface KeptText {
  readonly head: string;
  readonly tail: string;
}

/** What the session list needs of its search texts (the session-list bench keeps the heap version before SQLite as its baseline). */
export interface SearchTexts {
  /**
   * For each of `terms` (at least one, distinct, normalised: `searchTerms`), the sessions whose
   * kept text holds it. `titled[i]` says whether some session's title holds `terms[i]`: a term no
   * title holds has to be in the text, so a session without one of those is in no set at all
   * (the search stops at the first such term a session lacks). Once `signal` is aborted (the
   * client went away) it rejects with the signal's reason and scans no further page.
   */
  sessionsWith(terms: readonly string[], titled: readonly boolean[], signal?: AbortSignal): Promise<Set<string>[]>;
  close(): void;
}

export interface SessionSearchTextsOptions {
  readonly store: EventStore;
  /** Opens the database the texts are kept in (default `openAnonymousDatabase`); tests watch and break it through this. */
  readonly openDatabase?: () => Database.Database;
  /** Milliseconds on a clock that never steps back (default `performance.now`): when a pause after failures ends (CachePause). */
  readonly now?: () => number;
}

interface Statements {
  readonly read: Database.Statement<[string], KeptText>;
  readonly write: Database.Statement<[string, string, string]>;
  readonly remove: Database.Statement<[string]>;
}

/**
 * What the session list searches in each session's messages: their text lower-cased, on one
 * line, capped so that a long session costs no more than a short one. It keeps the start of the
 * conversation (what it was about) and its latest part (what it is about now), at most
 * SEARCH_HEAD_CHARS + SEARCH_TAIL_CHARS characters; text between the two is not searchable.
 *
 * The texts live in SQLite's anonymous temporary database, not in the heap: there is one per
 * session ever started, and every scheduled run starts a session, so in the heap they grew with
 * the server's age towards its heap limit (memory.md, "The session list's search text"). Like
 * the history search's index, this is a cache of the store with a follower of its own, read from
 * the first search on: the list itself (titles, order, open turns) never waits for it or fails
 * with it. Each page of events read is one transaction, each session's row read and written once
 * per page. When the database fails (a full disk, a damaged file), it is dropped and made again
 * from the store, never used half-written.
 */
export class SessionSearchTexts implements SearchTexts {
  private db: Database.Database | undefined;
  private statements: Statements | undefined;
  private follower!: GlobalFollower;
  /** Counts rebuilds: a search whose reading or scanning spanned one starts again on the new texts. */
  private generation = 0;
  private closed = false;
  private readonly pause: CachePause;

  constructor(private readonly options: SessionSearchTextsOptions) {
    this.pause = new CachePause('The session search', 'The list without a search still works; search again later.', options.now);
    this.follow();
  }

  async sessionsWith(terms: readonly string[], titled: readonly boolean[], signal?: AbortSignal): Promise<Set<string>[]> {
    return this.pause.run(
      () => this.searchOnce(terms, titled, signal),
      () => this.rebuild(),
      this.closed,
    );
  }

  /** For good (the server is stopping): later searches answer `search_unavailable`. */
  close(): void {
    this.closed = true;
    this.rebuild();
  }

  private async searchOnce(terms: readonly string[], titled: readonly boolean[], signal: AbortSignal | undefined): Promise<Set<string>[]> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const generation = this.generation;
      // The catch-up is shared with other searches, so it is not cancelled: only this search is.
      await this.follower.catchUp();
      signal?.throwIfAborted();
      const found = generation === this.generation ? await this.scan(terms, titled, generation, signal) : undefined;
      if (found) return found;
    }
    throw new OneClawError('search_unavailable', 'The session search was being rebuilt. Search again.');
  }

  /**
   * Every row, SEARCH_PAGE_ROWS at a time (by session id) with other work between pages;
   * undefined when a rebuild came between. instr, not LIKE: no wildcards to escape, and case was
   * already folded by normalizeForSearch. Terms no title holds go in the WHERE, which stops at the
   * first one a row lacks; each other term is a CASE column (a condition there stops at the
   * first of head and tail that holds it; a bare OR in a result column would evaluate both).
   */
  private async scan(terms: readonly string[], titled: readonly boolean[], generation: number, signal: AbortSignal | undefined): Promise<Set<string>[] | undefined> {
    const holds = (i: number) => `(instr(head, @t${i}) OR instr(tail, @t${i}))`;
    const required = terms.flatMap((_, i) => (titled[i] ? [] : [` AND ${holds(i)}`])).join('');
    const columns = terms.flatMap((_, i) => (titled[i] ? [`, CASE WHEN ${holds(i)} THEN 1 ELSE 0 END AS t${i}`] : [])).join('');
    const db = this.open();
    const pageEnd = db.prepare<{ after: string; last: number }, string>('SELECT session_id FROM texts WHERE session_id > @after ORDER BY session_id LIMIT 1 OFFSET @last').pluck();
    // Two statements, not `(@end IS NULL OR ...)`: SQLite would not bound the key range by that.
    const page = db.prepare(`SELECT session_id AS id${columns} FROM texts WHERE session_id > @after AND session_id <= @end${required}`);
    const lastPage = db.prepare(`SELECT session_id AS id${columns} FROM texts WHERE session_id > @after${required}`);
    const params = Object.fromEntries(terms.map((term, i) => [`t${i}`, term]));
    const found = terms.map(() => new Set<string>());
    for (let after = ''; ;) {
      // The page's last id; none when fewer rows are left (the whole rest is the last page).
      const end = pageEnd.get({ after, last: SEARCH_PAGE_ROWS - 1 });
      const rows = (end === undefined ? lastPage.all({ ...params, after }) : page.all({ ...params, after, end })) as Record<string, string | number>[];
      for (const row of rows) terms.forEach((_, i) => (titled[i] ? row[`t${i}`] : true) && found[i]?.add(row.id as string));
      if (end === undefined) return found;
      after = end;
      await new Promise((resolve) => setImmediate(resolve));
      // A search nobody waits for any more (a keystroke later, a closed tab) stops here.
      signal?.throwIfAborted();
      if (generation !== this.generation) return undefined;
    }
  }

  private follow(): void {
    this.follower = new GlobalFollower(this.options.store, (events) => this.applyPage(events));
  }

  /** Drops the texts and everything read into them; the next search reads the store from the start. */
  private rebuild(): void {
    this.follower.stop();
    this.db?.close();
    this.db = undefined;
    this.statements = undefined;
    this.generation++;
    if (!this.closed) this.follow();
  }

  /** Opened before anything is read into it, so a failure to open loses nothing already read. */
  private open(): Database.Database {
    if (this.closed) throw new OneClawError('search_unavailable', 'The server is stopping, so the session search is closed. Search again once it has restarted.');
    if (this.db) return this.db;
    const db = (this.options.openDatabase ?? openAnonymousDatabase)();
    this.statements = setUpOrClose(db, () => {
      db.exec('CREATE TABLE texts (session_id TEXT PRIMARY KEY, head TEXT NOT NULL, tail TEXT NOT NULL) WITHOUT ROWID');
      return {
        read: db.prepare<[string], KeptText>('SELECT head, tail FROM texts WHERE session_id = ?'),
        write: db.prepare<[string, string, string]>('INSERT OR REPLACE INTO texts (session_id, head, tail) VALUES (?, ?, ?)'),
        remove: db.prepare<[string]>('DELETE FROM texts WHERE session_id = ?'),
      };
    });
    this.db = db;
    return db;
  }

  /** One page of the store's events: each session's row it changed (null: removed), read and written once, in one transaction. */
  private applyPage(events: readonly RecordedEvent[]): void {
    const db = this.open();
    const { read, write, remove } = this.statements as Statements;
    const changed = new Map<string, KeptText | null>();
    for (const event of events) {
      // The list matches what the session shows: the conversation since the last clear; a deleted session not at all.
      const said = historyEventOf(event);
      if (said?.type === 'cleared' || said?.type === 'archived') changed.set(said.sessionId, null);
      if (said?.type !== 'message') continue;
      const kept = changed.has(said.sessionId) ? changed.get(said.sessionId) : read.get(said.sessionId);
      changed.set(said.sessionId, appendSearchText(kept ?? { head: '', tail: '' }, said.text));
    }
    db.transaction(() => {
      for (const [sessionId, kept] of changed) {
        if (kept === null) remove.run(sessionId);
        else write.run(sessionId, kept.head, kept.tail);
      }
    })();
  }
}

/**
 * `kept` with `text` added: to the head until it is full, then to the tail, whose oldest
 * characters go. Returns `kept` itself when the text is blank.
 */
export function appendSearchText(kept: KeptText, text: string): KeptText {
  const flat = normalizeForSearch(text);
  if (flat === '') return kept;
  if (kept.head.length < SEARCH_HEAD_CHARS) {
    const joined = kept.head === '' ? flat : `${kept.head} ${flat}`;
    const rest = joined.slice(SEARCH_HEAD_CHARS);
    return { head: joined.slice(0, SEARCH_HEAD_CHARS), tail: rest === '' ? kept.tail : rest.slice(-SEARCH_TAIL_CHARS) };
  }
  return { head: kept.head, tail: (kept.tail === '' ? flat : `${kept.tail} ${flat}`).slice(-SEARCH_TAIL_CHARS) };
}

export function normalizeForSearch(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A query's words, each to be found somewhere (in any order) in the title or the messages. */
export function searchTerms(query: string): string[] {
  return normalizeForSearch(query)
    .split(' ')
    .filter((t) => t !== '');
}

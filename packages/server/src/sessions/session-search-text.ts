import type Database from 'better-sqlite3';
import { openAnonymousDatabase } from '../persistence/anonymous-database';

/** Characters of a session's message text kept from its start, and from its latest messages, for list search. */
export const SEARCH_HEAD_CHARS = 8_000;
export const SEARCH_TAIL_CHARS = 8_000;

/** What is kept of one session's messages: their start and their latest part. */
export interface KeptText {
  readonly head: string;
  readonly tail: string;
}

/** What the list searches of one session: its title and its kept text, each normalised (`normalizeForSearch`). */
interface Row extends KeptText {
  readonly title: string;
}

const EMPTY: Row = { title: '', head: '', tail: '' };

/** What the session list needs of its search texts (the session-list bench keeps the heap version before SQLite as its baseline). */
export interface SearchTexts {
  /** Runs `apply` (which calls the methods below), then writes what it changed. */
  batch(apply: () => void): void;
  addText(sessionId: string, text: string): void;
  /** Forgets a session's text, not its title (a clear). */
  clearText(sessionId: string): void;
  setTitle(sessionId: string, title: string): void;
  /** Forgets the session (it was deleted). */
  forget(sessionId: string): void;
  /** The sessions whose title or kept text holds each of `terms` (at least one, normalised: `searchTerms`). */
  sessionsWithAll(terms: readonly string[]): Set<string>;
  close(): void;
}

/**
 * What the session list searches: each session's title and its messages' text, lower-cased, on
 * one line, the text capped so that a long session costs no more than a short one. It keeps the
 * start of the conversation (what it was about) and its latest part (what it is about now), at
 * most SEARCH_HEAD_CHARS + SEARCH_TAIL_CHARS characters; text between the two is not searchable.
 *
 * The rows live in SQLite's anonymous temporary database, not in the heap: there is one per
 * session ever started, and every scheduled run starts a session, so in the heap they grew with
 * the server's age towards its heap limit (memory.md, "The session list"). Changes are made in
 * `batch`es (a page of events): each session's row is read and written once per batch, not once
 * per message. A search is one scan for all its words. Any method may throw a SQLite error (a
 * full disk): the owner (SessionIndex) then builds everything again from the store.
 */
export class SessionSearchTexts implements SearchTexts {
  private readonly db: Database.Database;
  private readonly readRow: Database.Statement<[string], Row>;
  private readonly writeRow: Database.Statement<[string, string, string, string]>;
  private readonly deleteRow: Database.Statement<[string]>;
  /** The rows changed in the batch being applied (null: removed), written when it ends. */
  private readonly pending = new Map<string, Row | null>();

  constructor(openDatabase: () => Database.Database = openAnonymousDatabase) {
    this.db = openDatabase();
    try {
      this.db.exec('CREATE TABLE texts (session_id TEXT PRIMARY KEY, title TEXT NOT NULL, head TEXT NOT NULL, tail TEXT NOT NULL) WITHOUT ROWID');
      this.readRow = this.db.prepare('SELECT title, head, tail FROM texts WHERE session_id = ?');
      this.writeRow = this.db.prepare('INSERT OR REPLACE INTO texts (session_id, title, head, tail) VALUES (?, ?, ?, ?)');
      this.deleteRow = this.db.prepare('DELETE FROM texts WHERE session_id = ?');
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  /** Writes what `apply` changed in one transaction. */
  batch(apply: () => void): void {
    try {
      apply();
      this.db.transaction(() => {
        for (const [sessionId, row] of this.pending) {
          if (row === null) this.deleteRow.run(sessionId);
          else this.writeRow.run(sessionId, row.title, row.head, row.tail);
        }
      })();
    } finally {
      this.pending.clear();
    }
  }

  addText(sessionId: string, text: string): void {
    const row = this.rowOf(sessionId);
    const kept = appendSearchText(row, text);
    if (kept !== row) this.pending.set(sessionId, { title: row.title, ...kept });
  }

  clearText(sessionId: string): void {
    this.pending.set(sessionId, { ...EMPTY, title: this.rowOf(sessionId).title });
  }

  setTitle(sessionId: string, title: string): void {
    this.pending.set(sessionId, { ...this.rowOf(sessionId), title: normalizeForSearch(title) });
  }

  forget(sessionId: string): void {
    this.pending.set(sessionId, null);
  }

  /** One scan for all the terms. */
  sessionsWithAll(terms: readonly string[]): Set<string> {
    // instr, not LIKE: no wildcards to escape, and case was already folded by normalizeForSearch.
    const each = terms.map((_, i) => `(instr(title, @t${i}) OR instr(head, @t${i}) OR instr(tail, @t${i}))`);
    const params = Object.fromEntries(terms.map((term, i) => [`t${i}`, term]));
    return new Set(
      this.db
        .prepare(`SELECT session_id FROM texts WHERE ${each.join(' AND ')}`)
        .pluck()
        .all(params) as string[],
    );
  }

  close(): void {
    this.db.close();
  }

  private rowOf(sessionId: string): Row {
    const pending = this.pending.get(sessionId);
    if (pending !== undefined) return pending ?? EMPTY;
    return this.readRow.get(sessionId) ?? EMPTY;
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

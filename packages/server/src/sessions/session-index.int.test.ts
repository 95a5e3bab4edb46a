import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type Database from 'better-sqlite3';
import { InMemoryEventStore } from '@oneclaw/core';
import { testCatalogue } from '@oneclaw/core/testing';
import { openAnonymousDatabase } from '../persistence/anonymous-database';
import { SessionIndex } from './session-index';
import { SessionRepository } from './session-repository';
import { CACHE_PAUSE_MS } from '../persistence/cache-pause';
import { SEARCH_HEAD_CHARS, SEARCH_PAGE_ROWS, SessionSearchTexts } from './session-search-text';

/** A full collection, so heap figures count what is retained only. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

describe('S1 the session list search (SessionIndex) keeps message text in SQLite, outside the heap', () => {
  let store: InMemoryEventStore;
  let sessions: SessionRepository;
  let opened: Database.Database[];
  /** How many of the next databases opened fail as soon as they are used (a full disk would). */
  let failingOpens: number;
  /** The texts' clock (milliseconds): a pause after failures ends when it is moved on. */
  let nowMs: number;
  let index: SessionIndex;

  const start = (id: string) => sessions.record(id, { type: 'StartSession', sessionId: id, agentId: 'default' }, { commandId: `${id}-start` });
  const say = (id: string, messageId: string, text: string) => sessions.record(id, { type: 'RecordUserMessage', messageId, text }, { commandId: messageId });
  const found = async (query: string) => (await index.list(query)).map((s) => s.sessionId).sort();
  /** 1,100 sessions (more than four pages), five of them with "needle"; gives their ids by number. */
  const needleSessions = async () => {
    const id = (i: number) => `s${String(i).padStart(4, '0')}`;
    for (let i = 0; i < 1_100; i++) {
      await start(id(i));
      await say(id(i), `m${i}`, i % 250 === 7 ? `a needle ${i}` : `hay ${i}`);
    }
    return id;
  };
  const rows = (db: Database.Database | undefined) => db?.prepare('SELECT session_id, head, tail FROM texts ORDER BY session_id').all();

  beforeEach(() => {
    store = new InMemoryEventStore();
    sessions = new SessionRepository(store, testCatalogue());
    opened = [];
    failingOpens = 0;
    nowMs = Date.parse('2026-11-27T06:00:00Z');
    const openDatabase = () => {
      const db = openAnonymousDatabase();
      // The texts' table already there: creating it fails with a SQLite error.
      if (failingOpens-- > 0) db.exec('CREATE TABLE texts (broken)');
      return opened[opened.push(db) - 1] as Database.Database;
    };
    index = new SessionIndex(store, new SessionSearchTexts({ store, openDatabase, now: () => nowMs }));
  });
  afterEach(() => index.close());

  it("matches each word in the title or the messages (any case, SQL wildcards as plain text); a clear and a delete forget the text; the texts are SQLite's anonymous database", async () => {
    await start('a');
    await say('a', 'a1', 'Plan a WEEKEND in Lisbon');
    await say('a', 'a2', "with trams, 100% it's a_b");
    await start('b');
    await say('b', 'b1', 'Fix the kubernetes cluster');
    await start('c');
    await say('c', 'c1', 'lisbon notes');
    await sessions.record('c', { type: 'RenameSession', title: 'Trip' }, { commandId: 'c-rename' });
    await start('d');
    await say('d', 'd1', 'a trip to porto');
    expect(await found('lisbon')).toEqual(['a', 'c']);
    expect(await found('trip')).toEqual(['c', 'd']); // in c's title, in d's text
    expect(await found('LISBON trams')).toEqual(['a']);
    expect(await found('trip lisbon')).toEqual(['c']); // one word in the title, one in the text
    expect(await found('trip porto')).toEqual(['d']);
    expect(await found('faro')).toEqual([]);
    expect(await found('')).toEqual(['a', 'b', 'c', 'd']);
    // A query of many words (a search is at most 200 characters), repeated ones counted once.
    expect(await found(`lisbon ${'lisbon '.repeat(30)}`)).toEqual(['a', 'c']);
    expect(await found(Array.from({ length: 66 }, (_, i) => `w${i}`).join(' '))).toEqual([]);
    for (const term of ['100%', "it's", 'a_b', '%', '_']) expect(await found(term)).toEqual(['a']);
    // "trams" is in a's second message, not its title: found through the kept text.
    expect((await index.list('trams'))[0]?.title).toBe('Plan a WEEKEND in Lisbon');

    await sessions.record('a', { type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } }, { commandId: 'a-done' });
    await sessions.record('a', { type: 'ClearSession', reason: 'user' }, { commandId: 'a-clear' });
    expect(await found('trams')).toEqual([]);
    await sessions.record('b', { type: 'ArchiveSession' }, { commandId: 'b-archive' });
    expect(await found('kubernetes')).toEqual([]);

    expect(opened.map((db) => db.pragma('database_list'))).toEqual([[{ seq: 0, name: 'main', file: '' }]]);
    expect(rows(opened[0])).toEqual([
      { session_id: 'c', head: 'lisbon notes', tail: '' },
      { session_id: 'd', head: 'a trip to porto', tail: '' },
    ]);
  });

  it('the list without a search, and the open turns, never open the texts (start-up does not depend on a temporary file)', async () => {
    await start('a');
    await say('a', 'a1', 'hello');
    expect(await found('')).toEqual(['a']);
    expect(await index.sessionsWithOpenTurn()).toEqual(['a']);
    expect(opened).toHaveLength(0);
  });

  it(`a search over more sessions than one page (${SEARCH_PAGE_ROWS}) finds them all, and lets other work run between pages`, async () => {
    const id = await needleSessions();
    expect(await found('hay')).toHaveLength(1_095); // the texts are read: what follows is the search alone
    let ticks = 0;
    let searching = true;
    const tick = () => {
      ticks++;
      if (searching) setImmediate(tick);
    };
    setImmediate(tick);
    const needles = await found('needle');
    searching = false;
    expect(needles).toEqual([id(7), id(257), id(507), id(757), id(1007)]);
    // Five pages, four turns of the event loop between them (one scan of all would give none).
    expect(ticks).toBeGreaterThanOrEqual(4);
  });

  it('a search whose signal aborts (its client went away) stops at the next page and rejects with the reason; one aborted before it starts scans nothing', async () => {
    await needleSessions();
    expect(await found('hay')).toHaveLength(1_095); // the texts are read: what follows is the search alone
    // Every page of a search is one `all` of a statement (five pages here, as a whole search makes).
    const statement = Object.getPrototypeOf(opened[0]!.prepare('SELECT 1')) as { all: (...args: unknown[]) => unknown[] };
    const pages = jest.spyOn(statement, 'all');
    try {
      const gone = new AbortController();
      // Runs after the search's first page, when it lets other work run.
      setImmediate(() => gone.abort(new DOMException('the client disconnected', 'AbortError')));
      await expect(index.list('needle', gone.signal)).rejects.toMatchObject({ name: 'AbortError', message: 'the client disconnected' });
      expect(pages).toHaveBeenCalledTimes(1);
      await expect(index.list('needle', AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
      expect(pages).toHaveBeenCalledTimes(1);
      expect(await found('needle')).toHaveLength(5);
      expect(pages).toHaveBeenCalledTimes(6);
    } finally {
      pages.mockRestore();
    }
  });

  it('a search whose texts break between two of its pages starts again on new ones and answers in full; one that the server stops answers search_unavailable', async () => {
    const id = await needleSessions();
    expect(await found('hay')).toHaveLength(1_095);
    // Runs after the search's first page, when it lets other work run.
    setImmediate(() => opened[0]?.exec('DROP TABLE texts'));
    expect(await found('needle')).toEqual([id(7), id(257), id(507), id(757), id(1007)]);
    expect(opened).toHaveLength(2);
    setImmediate(() => index.close());
    await expect(index.list('needle')).rejects.toMatchObject({ code: 'search_unavailable', message: expect.stringContaining('stopping') });
  });

  it('sessions with large messages keep at most the capped text in the heap, however the text was cut (no V8 slice keeps its parent string alive)', async () => {
    const sessionCount = 100;
    for (let i = 0; i < sessionCount; i++) {
      await start(`s${i}`);
      await say(`s${i}`, `s${i}-1`, `first words ${i}`);
      await say(`s${i}`, `s${i}-2`, `word${i} `.repeat(30_000)); // about 200 KB
    }
    // Everything the measured index's code needs once (compiled code, SQLite's statements) is made by another first.
    const warmUp = new SessionIndex(store, new SessionSearchTexts({ store }));
    expect(await warmUp.list('first')).toHaveLength(sessionCount);
    warmUp.close();
    const fresh = new SessionIndex(store, new SessionSearchTexts({ store }));
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    expect(await fresh.list('first')).toHaveLength(sessionCount);
    collectGarbage();
    const grown = process.memoryUsage().heapUsed - before;
    fresh.close();
    // In the heap, each session's kept text held its last message whole (about 200 KB, 20 MB in
    // all: `slice` of a long string shares it); in SQLite, the heap holds the list's entries only.
    expect(grown).toBeLessThan((sessionCount * SEARCH_HEAD_CHARS) / 0.4); // 2 MB
    expect(await found('word99')).toEqual(['s99']);
  });

  it('a broken texts database is dropped and made again from the store, and the search answers in full; concurrent searches both do', async () => {
    await start('a');
    await say('a', 'a1', 'kubernetes upgrade');
    expect(await found('kubernetes')).toEqual(['a']);
    // What a full disk or a damaged temporary file would do: the table is gone.
    opened[0]?.exec('DROP TABLE texts');
    await start('b');
    await say('b', 'b1', 'kubernetes again');
    const [one, two] = await Promise.all([found('kubernetes'), found('kubernetes')]);
    expect(one).toEqual(['a', 'b']);
    expect(two).toEqual(['a', 'b']);
    expect(opened).toHaveLength(2);
    expect(opened[0]?.open).toBe(false);
    expect(rows(opened[1])).toEqual([
      { session_id: 'a', head: 'kubernetes upgrade', tail: '' },
      { session_id: 'b', head: 'kubernetes again', tail: '' },
    ]);
  });

  it(`texts that fail again when made anew answer search_unavailable, never half-written; the list without a search still works; searches answer at once for ${CACHE_PAUSE_MS / 1000} s, then start afresh`, async () => {
    await start('a');
    await say('a', 'a1', 'kubernetes upgrade');
    failingOpens = 2;
    await expect(index.list('kubernetes')).rejects.toMatchObject({ code: 'search_unavailable', message: expect.stringContaining('SQLITE_ERROR') });
    expect(opened.map((db) => db.open)).toEqual([false, false]);
    expect(await found('')).toEqual(['a']);
    // Paused: no database is made and the store is not read again, however many searches come.
    const reads = jest.spyOn(store, 'readAll');
    nowMs += CACHE_PAUSE_MS - 1;
    for (let i = 0; i < 3; i++) await expect(index.list('kubernetes')).rejects.toMatchObject({ code: 'search_unavailable', details: { retryAfterSeconds: 1 } });
    expect(opened).toHaveLength(2);
    // The list's own catch-up reads on from where it was; nothing reads the store from its start.
    expect(reads.mock.calls.filter(([options]) => (options?.fromPosition ?? 0) === 0)).toEqual([]);
    nowMs += 1;
    expect(await found('kubernetes')).toEqual(['a']);
    expect(opened).toHaveLength(3);
  });

  it('after close a search answers search_unavailable; the list without a search still answers', async () => {
    await start('a');
    await say('a', 'a1', 'kubernetes upgrade');
    expect(await found('kubernetes')).toEqual(['a']);
    index.close();
    await expect(index.list('kubernetes')).rejects.toMatchObject({ code: 'search_unavailable', message: expect.stringContaining('stopping') });
    expect(opened.map((db) => db.open)).toEqual([false]);
    expect(await found('')).toEqual(['a']);
  });
});

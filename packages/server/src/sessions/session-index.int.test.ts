import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type Database from 'better-sqlite3';
import { InMemoryEventStore } from '@oneclaw/core';
import { testCatalogue } from '@oneclaw/core/testing';
import { openAnonymousDatabase } from '../persistence/anonymous-database';
import { SessionIndex } from './session-index';
import { SessionRepository } from './session-repository';
import { SEARCH_HEAD_CHARS, SessionSearchTexts } from './session-search-text';

/** A full collection, so heap figures count what is retained only. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

describe('S1 the session list search (SessionIndex) keeps message text in SQLite, outside the heap', () => {
  let store: InMemoryEventStore;
  let sessions: SessionRepository;
  let opened: Database.Database[];
  let index: SessionIndex;

  const start = (id: string) => sessions.record(id, { type: 'StartSession', sessionId: id, agentId: 'default' }, { commandId: `${id}-start` });
  const say = (id: string, messageId: string, text: string) => sessions.record(id, { type: 'RecordUserMessage', messageId, text }, { commandId: messageId });
  const found = async (query: string) => (await index.list(query)).map((s) => s.sessionId).sort();

  beforeEach(() => {
    store = new InMemoryEventStore();
    sessions = new SessionRepository(store, testCatalogue());
    opened = [];
    index = new SessionIndex(store, () => new SessionSearchTexts(() => opened[opened.push(openAnonymousDatabase()) - 1] as Database.Database));
  });
  afterEach(() => index.close());

  it("matches each word in the title or the messages (any case); a clear and a delete forget the text; the texts are SQLite's anonymous database", async () => {
    await start('a');
    await say('a', 'a1', 'Plan a WEEKEND in Lisbon');
    await say('a', 'a2', 'with trams');
    await start('b');
    await say('b', 'b1', 'Fix the kubernetes cluster');
    await start('c');
    await say('c', 'c1', 'lisbon notes');
    expect(await found('lisbon')).toEqual(['a', 'c']);
    expect(await found('LISBON trams')).toEqual(['a']);
    expect(await found('in lisbon weekend')).toEqual(['a']);
    expect(await found('porto')).toEqual([]);
    expect(await found('')).toEqual(['a', 'b', 'c']);
    // "trams" is in a's second message, not its title: found through the kept text.
    expect((await index.list('trams'))[0]?.title).toBe('Plan a WEEKEND in Lisbon');

    await sessions.record('a', { type: 'ClearSession', reason: 'user' }, { commandId: 'a-clear' });
    expect(await found('trams')).toEqual([]);
    await sessions.record('b', { type: 'ArchiveSession' }, { commandId: 'b-archive' });
    expect(await found('kubernetes')).toEqual([]);

    expect(opened.map((db) => db.pragma('database_list'))).toEqual([[{ seq: 0, name: 'main', file: '' }]]);
    // The cleared session keeps an empty row (its title is empty too until its next message); the deleted one has none.
    const rows = opened[0]?.prepare('SELECT session_id, title, head, tail FROM texts ORDER BY session_id').all();
    expect(rows).toEqual([
      { session_id: 'a', title: '', head: '', tail: '' },
      { session_id: 'c', title: 'lisbon notes', head: 'lisbon notes', tail: '' },
    ]);
  });

  it('a session of many large messages keeps at most the capped text, however the text was cut (no V8 slice keeps its parent string alive)', async () => {
    const sessionCount = 60;
    for (let i = 0; i < sessionCount; i++) {
      await start(`s${i}`);
      await say(`s${i}`, `s${i}-1`, `first words ${i}`);
      await say(`s${i}`, `s${i}-2`, `word${i} `.repeat(30_000)); // about 200 KB
    }
    const fresh = new SessionIndex(store);
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    expect(await fresh.list('first')).toHaveLength(sessionCount);
    collectGarbage();
    const grown = process.memoryUsage().heapUsed - before;
    fresh.close();
    // In the heap, each session's kept text held its last message whole (about 200 KB, 12 MB in
    // all: `slice` of a long string shares it); in SQLite, the heap holds the entries only.
    expect(grown).toBeLessThan(sessionCount * SEARCH_HEAD_CHARS);
    expect(await found('word59')).toEqual(['s59']);
  });

  it('a broken texts database is replaced by a new one built from the store, and the list answers in full; concurrent lists share the rebuild', async () => {
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
    expect(await index.sessionsWithOpenTurn()).toEqual(['a', 'b']);
  });

  it("an error of the store's read (even a SQLite one) goes to the caller and rebuilds nothing; the next list reads on", async () => {
    await start('a');
    await say('a', 'a1', 'kubernetes upgrade');
    expect(await found('kubernetes')).toEqual(['a']);
    await start('b');
    await say('b', 'b1', 'kubernetes again');
    const readAll = store.readAll.bind(store);
    let failures = 1;
    jest.spyOn(store, 'readAll').mockImplementation(async (options) => {
      if (failures-- > 0) throw Object.assign(new Error('disk I/O error'), { name: 'SqliteError', code: 'SQLITE_IOERR' });
      return readAll(options);
    });
    await expect(index.list('kubernetes')).rejects.toMatchObject({ code: 'SQLITE_IOERR' });
    expect(await found('kubernetes')).toEqual(['a', 'b']);
    expect(opened).toHaveLength(1);
  });
});

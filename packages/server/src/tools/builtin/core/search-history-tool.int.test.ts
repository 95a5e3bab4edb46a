import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ToolExecutionEngine, ToolRegistry, type ToolResult } from '@oneclaw/tool-registry';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import { SessionRepository } from '../../../sessions/session-repository';
import { openAnonymousDatabase } from '../../../persistence/anonymous-database';
import { CACHE_PAUSE_MS } from '../../../persistence/cache-pause';
import { editDistance, foldLatin, HistoryIndex, queryTerms, snippetOf } from './history-index';
import { MemoryFile } from './memory-file';
import { createSearchHistoryTool } from './search-history-tool';

let dir: string;
let store: SqliteEventStore;
let sessions: SessionRepository;
let memory: MemoryFile;
let history: HistoryIndex;
/** The index's connections, in the order it opened them. */
let opened: Database.Database[];
let clock: Date;
let step = 0;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-history-'));
  store = SqliteEventStore.open(path.join(dir, 'events.db'));
  clock = new Date('2025-03-01T12:00:00Z');
  sessions = new SessionRepository(store, new ToolRegistry(), () => clock);
  memory = new MemoryFile({ folder: path.join(dir, 'memory'), now: () => clock, timeZone: 'UTC' });
  history = new HistoryIndex({ store, memory, timeZone: 'UTC' });
});
afterEach(async () => {
  jest.restoreAllMocks();
  history.close();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function conversation(sessionId: string, day: string, messages: readonly [role: 'user' | 'assistant' | 'tool', text: string][]): Promise<void> {
  clock = new Date(`${day}T12:00:00Z`);
  const record = (command: Parameters<SessionRepository['record']>[1]) => sessions.record(sessionId, command, { commandId: `cmd-${(step += 1)}` });
  if ((await sessions.load(sessionId)).revision === 'no_stream') await record({ type: 'StartSession', sessionId, agentId: 'default' });
  let callId = '';
  for (const [role, text] of messages) {
    const messageId = `m-${(step += 1)}`;
    if (role === 'user') await record({ type: 'RecordUserMessage', messageId, text });
    else if (role === 'assistant') {
      callId = `call-${messageId}`;
      await record({ type: 'RecordAssistantMessage', messageId, text, toolCalls: text.startsWith('call:') ? [{ callId, toolName: 'search_history', arguments: {} }] : [] });
    } else await record({ type: 'RecordToolResult', messageId, callId, toolName: 'search_history', durationMs: 1, status: 'success', result: text });
  }
}

/** `count` user messages, the i-th saying `textOf(i)`. */
const userMessages = (count: number, textOf: (i: number) => string): [role: 'user', text: string][] => Array.from({ length: count }, (_, i) => ['user', textOf(i)]);

const search = (params: Record<string, unknown>, sessionId = 'asking'): Promise<ToolResult> =>
  createSearchHistoryTool(history).execute(params, { signal: new AbortController().signal, sessionId, callId: 'c', env: {} });

function text(result: ToolResult): string {
  if (result.status !== 'success') throw new Error(`expected success, got ${result.errorType}: ${result.message}`);
  return result.result;
}

async function seed(): Promise<void> {
  await conversation('alpha', '2025-03-01', [
    ['user', 'How do I deploy the kubernetes cluster on Hetzner?'],
    ['assistant', 'Use k3s: one control node and two workers are enough for a small cluster.'],
  ]);
  await conversation('bravo', '2025-03-05', [
    ['user', 'Book a flight to Lisbon in May, window seat please.'],
    ['assistant', 'I found three flights to Lisbon on 12 May.'],
  ]);
  clock = new Date('2025-03-03T12:00:00Z');
  await memory.save('The user runs a kubernetes homelab on three Raspberry Pis.', 'projects');
}

describe('search_history over a real SQLite event store and the memory file (issue 6)', () => {
  it('finds user and assistant messages and memory entries, each with its session id (or memory), date, role and a snippet', async () => {
    await seed();
    const result = text(await search({ query: 'kubernetes' }));
    expect(result.startsWith('2 results for "kubernetes" in conversations and memory, best first:\n\n1. [')).toBe(true);
    expect(result.match(/^\d+\. \[/gm)).toEqual(['1. [', '2. [']);
    expect(result).toContain('[session alpha · 2025-03-01 · user]\n   How do I deploy the kubernetes cluster on Hetzner?');
    expect(result).toContain('[memory · 2025-03-03 · projects]\n   The user runs a kubernetes homelab on three Raspberry Pis.');
    expect(text(await search({ query: 'three flights' }))).toContain('[session bravo · 2025-03-05 · assistant]\n   I found three flights to Lisbon on 12 May.');
  });

  it('does not index tool results (only user and assistant texts)', async () => {
    await conversation('tools', '2025-03-02', [
      ['user', 'look it up'],
      ['assistant', 'call: searching'],
      ['tool', 'zanzibar appears only in a tool result'],
    ]);
    expect(text(await search({ query: 'zanzibar' }))).toBe('No results for "zanzibar" in conversations and memory. Try other or fewer words, or a wider date range.');
  });

  it('scope "memory" searches only memory, scope "sessions" only conversations', async () => {
    await seed();
    const memoryOnly = text(await search({ query: 'kubernetes', scope: 'memory' }));
    expect(memoryOnly).toMatch(/^1 result for "kubernetes" in memory, best first:/);
    expect(memoryOnly).toContain('[memory · 2025-03-03 · projects]');
    const sessionsOnly = text(await search({ query: 'kubernetes', scope: 'sessions' }));
    expect(sessionsOnly).toMatch(/^1 result for "kubernetes" in conversations, best first:/);
    expect(sessionsOnly).toContain('[session alpha');
  });

  it('date_from and date_to filter by the day of the event (metadata.occurredAt) or of the memory entry, inclusive', async () => {
    await seed();
    const from = text(await search({ query: 'kubernetes Lisbon', date_from: '2025-03-03' }));
    expect(from).not.toContain('session alpha');
    expect(from).toContain('[memory · 2025-03-03');
    expect(from).toContain('session bravo');
    const to = text(await search({ query: 'kubernetes Lisbon', date_to: '2025-03-03' }));
    expect(to).toContain('session alpha');
    expect(to).toContain('[memory · 2025-03-03');
    expect(to).not.toContain('session bravo');
    const day = text(await search({ query: 'kubernetes Lisbon', date_from: '2025-03-01', date_to: '2025-03-01' }));
    expect(day).toMatch(/^1 result for "kubernetes Lisbon" in conversations and memory \(2025-03-01 to 2025-03-01\)/);
  });

  it('reads the store incrementally: events appended after a search are found by the next one, which reads only from the last position', async () => {
    await seed();
    const readAll = jest.spyOn(store, 'readAll');
    expect(text(await search({ query: 'espresso' }))).toMatch(/^No results/);
    const firstReads = readAll.mock.calls.length;
    const lastPosition = Math.max(...(await store.readAll()).map((e) => e.position));
    readAll.mockClear();

    await conversation('charlie', '2025-03-07', [['user', 'Which espresso machine should I buy?']]);
    expect(text(await search({ query: 'espresso' }))).toContain('[session charlie · 2025-03-07 · user]\n   Which espresso machine should I buy?');
    expect(firstReads).toBeGreaterThan(0);
    expect(readAll.mock.calls.map(([options]) => options?.fromPosition)).toEqual([lastPosition]);
  });

  it('ranks the better match first', async () => {
    await conversation('weak', '2025-03-01', [['user', 'The cluster of grapes on the table looks nice.']]);
    await conversation('strong', '2025-03-02', [['user', 'Our kubernetes cluster is down again, the kubernetes API times out.']]);
    const result = text(await search({ query: 'kubernetes cluster' }));
    expect(result.indexOf('session strong')).toBeGreaterThan(0);
    expect(result.indexOf('session strong')).toBeLessThan(result.indexOf('session weak'));
  });

  it('finds words by prefix and with small typos', async () => {
    await seed();
    expect(text(await search({ query: 'deploy' }))).toContain('session alpha');
    expect(text(await search({ query: 'kubernets' }))).toContain('session alpha');
  });

  it("leaves out the asking session's live conversation (since its last clear), but finds what was cleared", async () => {
    await conversation('asking', '2025-03-01', [['user', 'Remember the pelican sketch we discussed?']]);
    expect(text(await search({ query: 'pelican' }, 'asking'))).toMatch(/^No results/);
    expect(text(await search({ query: 'pelican' }, 'other'))).toContain('session asking');
    await sessions.record(
      'asking',
      { type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } },
      { commandId: 'done-1' },
    );
    await sessions.record('asking', { type: 'ClearSession', reason: 'user (/clear)' }, { commandId: 'clear-1' });
    await conversation('asking', '2025-03-02', [['user', 'Search for the pelican thing please']]);
    const result = text(await search({ query: 'pelican' }, 'asking'));
    expect(result).toContain('Remember the pelican sketch');
    expect(result).not.toContain('Search for the pelican thing');
  });

  it('sees memory saved, edited or removed after an earlier search', async () => {
    await seed();
    expect(text(await search({ query: 'saxophone', scope: 'memory' }))).toMatch(/^No results/);
    await memory.save('Plays the tenor saxophone on weekends.', 'interests');
    expect(text(await search({ query: 'saxophone', scope: 'memory' }))).toContain('[memory · 2025-03-03 · interests]');
    fs.writeFileSync(memory.file, '## Notes\n- [2025-03-04] Only this entry is left now.\n');
    expect(text(await search({ query: 'saxophone', scope: 'memory' }))).toMatch(/^No results/);
    expect(text(await search({ query: 'kubernetes', scope: 'memory' }))).toMatch(/^No results/);
    expect(text(await search({ query: 'entry left', scope: 'memory' }))).toContain('[memory · 2025-03-04 · notes]');
  });

  it('returns max_results (default 10), at most 50', async () => {
    await conversation(
      'many',
      '2025-03-01',
      userMessages(60, (i) => `marmalade recipe number ${i}`),
    );
    const count = async (params: Record<string, unknown>) => (text(await search({ query: 'marmalade', ...params })).match(/^\d+\. \[/gm) ?? []).length;
    expect(await count({})).toBe(10);
    expect(await count({ max_results: 3 })).toBe(3);
    expect(await count({ max_results: 500 })).toBe(50);
  });

  it('errors: a query without words (invalid_query), a bad date (invalid_date), date_from after date_to (invalid_date_range)', async () => {
    expect(await search({ query: '   ' })).toMatchObject({ status: 'error', errorType: 'invalid_query' });
    expect(await search({ query: '?!' })).toMatchObject({ status: 'error', errorType: 'invalid_query' });
    for (const date of ['2025-02-30', '03/01/2025', '2025-3-1', 'yesterday', '2025-13-01']) {
      const result = await search({ query: 'x', date_from: date });
      expect([date, result.status === 'error' && result.errorType]).toEqual([date, 'invalid_date']);
    }
    const to = await search({ query: 'x', date_to: 'tomorrow' });
    expect(to).toMatchObject({ status: 'error', errorType: 'invalid_date' });
    expect(to.status === 'error' && to.message).toBe("date_to 'tomorrow' is not a date. Use YYYY-MM-DD, e.g. 2025-03-01.");
    expect(await search({ query: 'x', date_from: '2025-03-02', date_to: '2025-03-01' })).toMatchObject({ status: 'error', errorType: 'invalid_date_range' });
  });

  it('bad input is a validation_error from the engine (no query, unknown scope, max_results 0); timeout 30 s', async () => {
    const registry = new ToolRegistry();
    registry.register(createSearchHistoryTool(history), { kind: 'built-in' });
    const calls = [{}, { query: 'x', scope: 'everything' }, { query: 'x', max_results: 0 }];
    const outcomes = await new ToolExecutionEngine(registry).executeAll(
      calls.map((args, i) => ({ callId: `c${i}`, toolName: 'search_history', arguments: args })),
      { sessionId: 's', activeToolNames: ['search_history'] },
    );
    expect(outcomes.map((o) => o.result.status === 'error' && o.result.errorType)).toEqual(['validation_error', 'validation_error', 'validation_error']);
    expect(registry.get('search_history')?.definition.timeoutMs).toBe(30_000);
  });
});

describe('search_history: the index is SQLite, outside the heap, and queries are words only', () => {
  // The same index, with its connections watched (the other tests use the default opener).
  beforeEach(() => {
    history.close();
    opened = [];
    history = new HistoryIndex({ store, memory, timeZone: 'UTC', openDatabase: () => opened[opened.push(openAnonymousDatabase()) - 1] as Database.Database });
  });

  it("is SQLite's anonymous temporary database (no file is left behind, even after a crash); after close() a search answers search_unavailable", async () => {
    await seed();
    expect(text(await search({ query: 'kubernetes' }))).toContain('session alpha');
    expect(opened.map((db) => db.pragma('database_list'))).toEqual([[{ seq: 0, name: 'main', file: '' }]]);
    history.close();
    expect(await search({ query: 'lisbon' })).toMatchObject({ status: 'error', errorType: 'search_unavailable', message: expect.stringContaining('stopping') });
  });

  it(`an index that fails again when made anew answers search_unavailable (closed, never half-written); searches answer at once for ${CACHE_PAUSE_MS / 1000} s, then start afresh`, async () => {
    await seed();
    let nowMs = Date.parse('2025-03-10T12:00:00Z');
    let failingOpens = 2;
    history.close();
    opened = [];
    history = new HistoryIndex({
      store,
      memory,
      timeZone: 'UTC',
      now: () => nowMs,
      openDatabase: () => {
        const db = openAnonymousDatabase();
        // The index's table already there: making it fails with a SQLite error, as a full disk would.
        if (failingOpens-- > 0) db.exec('CREATE TABLE docs (broken)');
        return opened[opened.push(db) - 1] as Database.Database;
      },
    });
    expect(await search({ query: 'kubernetes' })).toMatchObject({ status: 'error', errorType: 'search_unavailable', message: expect.stringContaining('SQLITE_ERROR') });
    expect(opened.map((db) => db.open)).toEqual([false, false]);
    const reads = jest.spyOn(store, 'readAll');
    nowMs += CACHE_PAUSE_MS - 1;
    expect(await search({ query: 'kubernetes' })).toMatchObject({ status: 'error', errorType: 'search_unavailable', message: expect.stringContaining('tried again in 1 s') });
    expect(opened).toHaveLength(2);
    expect(reads).not.toHaveBeenCalled();
    nowMs += 1;
    expect(text(await search({ query: 'kubernetes' }))).toContain('session alpha');
    expect(opened).toHaveLength(3);
  });

  it('a search still reading the store when close() comes answers search_unavailable and writes nothing', async () => {
    await seed();
    const reading = search({ query: 'kubernetes' });
    history.close();
    expect(await reading).toMatchObject({ status: 'error', errorType: 'search_unavailable' });
    expect(opened.map((db) => db.open)).toEqual([false]);
  });

  it('a broken index is replaced by a new one made from the store, and the search goes on; a search reading meanwhile reads again into the new one', async () => {
    await seed();
    expect(text(await search({ query: 'kubernetes', scope: 'sessions' }))).toContain('session alpha');
    // What a full disk or a damaged temporary file would do: the index loses one of its tables.
    opened[0]?.exec('DROP TABLE terms');
    await conversation('delta', '2025-03-08', [['user', 'kubernetes upgrade went fine']]);
    const [one, two] = await Promise.all([search({ query: 'kubernetes', scope: 'sessions' }), search({ query: 'kubernetes', scope: 'sessions' })]);
    for (const result of [one, two]) {
      expect(text(result as ToolResult)).toMatch(/^2 results/); // each message once, in both
      expect(text(result as ToolResult)).toContain('session delta');
    }
  });

  it('leaves out a deleted (archived) session: what was indexed, what its running turn records after the delete, and after a rebuild from the store', async () => {
    await conversation('big', '2025-03-01', [
      ['user', 'Where is the zebra crossing?'],
      ['assistant', 'The zebra crossing reply: at the corner.'],
    ]);
    await conversation('kept', '2025-03-02', [['user', 'A zebra at the zoo']]);
    expect(text(await search({ query: 'zebra' }))).toContain('[session big');
    await sessions.record('big', { type: 'ArchiveSession' }, { commandId: 'archive-big' });
    // A turn running at the delete still records its reply (decide allows it on an archived session).
    await sessions.record('big', { type: 'RecordAssistantMessage', messageId: 'late', text: 'A late zebra reply', toolCalls: [] }, { commandId: 'late-big' });
    const found = text(await search({ query: 'zebra' }));
    expect(found).toMatch(/^1 result/);
    expect(found).toContain('[session kept');
    // A broken index is made anew from the store, from its start: the deleted session stays out.
    opened[0]?.exec('DROP TABLE terms');
    expect(text(await search({ query: 'zebra' }))).toBe(found);
    expect(opened).toHaveLength(2);
  });

  it('indexes a store of more than one page (1000 events) read in one search, and what comes after it', async () => {
    await conversation(
      'long',
      '2025-03-01',
      userMessages(1100, (i) => (i === 1050 ? 'the walrus appears late' : `filler message ${i}`)),
    );
    expect(text(await search({ query: 'walrus' }))).toContain('the walrus appears late');
    expect(text(await search({ query: 'filler', max_results: 50 })).match(/^\d+\. \[/gm)).toHaveLength(50);
    await conversation('later', '2025-03-02', [['assistant', 'a second walrus']]);
    expect(text(await search({ query: 'walrus' }))).toContain('[session later · 2025-03-02 · assistant]');
  });

  it('takes FTS5 operators, quotes and stars in a query as plain words, and never fails on them', async () => {
    await seed();
    for (const query of ['kubernetes" OR *', 'NEAR(kubernetes cluster)', '-kubernetes', 'text:kubernetes', '^kubernetes', '(kubernetes', 'kubernetes AND', '"""']) {
      const result = await search({ query });
      if (query === '"""') expect(result).toMatchObject({ status: 'error', errorType: 'invalid_query' });
      else expect(text(result)).toContain('session alpha');
    }
    // FTS5's operators are words too: "and" is in alpha's answer.
    expect(text(await search({ query: 'NOT AND OR' }))).toContain('one control node and two workers');
  });

  it('a huge query (100,000 characters, thousands of words) is answered from its first words', async () => {
    await seed();
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i}x`).join(' ');
    expect(text(await search({ query: `lisbon ${words}` }))).toContain('session bravo');
  });

  it('matches without case and diacritics, and finds typos (one edit per five letters, not in the first letter)', async () => {
    await conversation('accents', '2025-03-01', [['user', 'We had coffee at the Cafe\u0301 Brasileira in São Paulo.']]);
    expect(text(await search({ query: 'CAFE sao' }))).toContain('session accents');
    expect(text(await search({ query: 'café' }))).toContain('session accents');
    await seed();
    expect(text(await search({ query: 'kuberentes' }))).toContain('session alpha'); // 10 letters: two edits
    expect(text(await search({ query: 'kubrnets' }))).toContain('session alpha'); // 8 letters: two edits
    expect(text(await search({ query: 'deplyo' }))).toMatch(/^No results/); // 6 letters: one edit only
    expect(text(await search({ query: 'jubernetes' }))).toMatch(/^No results/); // a typo in the first letter is not looked for
    expect(text(await search({ query: 'brasilera' }))).toContain('session accents');
  });

  it('looks for typos only when the words as written do not fill the results asked for', async () => {
    await conversation('reports', '2025-03-01', [
      ['user', 'The quarterly report is late.'],
      ['user', 'Send the report to finance.'],
      ['user', 'Which report did legal ask for?'],
    ]);
    await conversation('holiday', '2025-03-02', [['user', 'Book the ski resort for February.']]);
    // In 3 messages, 2 asked for: "report" fills the answer as written, so "resort" (one edit) is not looked for.
    expect(text(await search({ query: 'report', max_results: 2 }))).not.toContain('session holiday');
    // 10 asked for: 3 messages do not fill it, so its near spellings are searched too.
    expect(text(await search({ query: 'report', max_results: 10 }))).toContain('session holiday');
    // A typo held by one message still finds the word as meant elsewhere.
    await conversation('typo', '2025-03-03', [['user', 'the repirt is attached']]);
    const result = text(await search({ query: 'repirt' }));
    expect(result).toContain('session typo');
    expect(result).toContain('session reports');
  });

  it('decides for each word: a common word in the query does not stop a typo beside it from being corrected', async () => {
    await conversation(
      'common',
      '2025-03-01',
      userMessages(12, (i) => `the note number ${i}`),
    );
    await conversation('homelab', '2025-03-02', [['user', 'my kubernetes homelab runs on three nodes']]);
    expect(text(await search({ query: 'the kubernets setup' }))).toContain('session homelab');
  });

  it('counts only what the scope, dates and asking session leave: a typo common in conversations is still corrected in memory', async () => {
    await conversation(
      'typos',
      '2025-03-01',
      userMessages(12, (i) => `kubernets note ${i}`),
    );
    clock = new Date('2025-03-02T12:00:00Z');
    await memory.save('The user runs a kubernetes homelab.', 'projects');
    expect(text(await search({ query: 'kubernets', scope: 'memory' }))).toContain('The user runs a kubernetes homelab.');
  });

  it('finds words in other scripts as they were written: Korean, Japanese, Russian, Hindi, Thai, Greek, fullwidth', async () => {
    const texts = [
      '한국어 회의는 내일입니다',
      'データベースの設定を変更しました',
      'Купил йогурт и ёлку',
      'हिंदी में लिखा संदेश',
      'ภาษาไทย ข้อความ',
      'Ωραίος καιρός σήμερα',
      'ＡＢＣ社の会議',
    ];
    await conversation(
      'scripts',
      '2025-03-01',
      texts.map((t): ['user', string] => ['user', t]),
    );
    for (const [query, expected] of [
      ['한국어', 0],
      ['データベースの設定を変更しました', 1],
      ['йогурт', 2],
      ['ёлку', 2],
      ['हिंदी', 3],
      ['ภาษาไทย', 4],
      ['καιρός', 5],
      ['ＡＢＣ社の会議', 6],
    ] as const) {
      expect([query, text(await search({ query }))]).toEqual([query, expect.stringContaining(texts[expected] as string)]);
    }
  });

  it('finds a Chinese or Japanese word inside a sentence written without spaces (whole runs first, then by pairs of characters), shows the sentence as written, never across punctuation', async () => {
    await conversation('cjk', '2025-03-01', [
      ['user', 'データベースの設定を変更しました'],
      ['assistant', '我们明天在北京开会。'],
      ['user', '定期的な設備の点検'],
    ]);
    const settings = text(await search({ query: '設定' }));
    expect(settings).toMatch(/^1 result for "設定"/);
    expect(settings).toContain('データベースの設定を変更しました');
    expect(text(await search({ query: 'データベース' }))).toContain('データベースの設定を変更しました');
    expect(text(await search({ query: '北京' }))).toContain('我们明天在北京开会。');
    // 設 and 定 are both in the third message, but not next to each other.
    expect(text(await search({ query: '定設' }))).toMatch(/^No results/);
    // A query that differs by a particle finds the message by its pairs of characters, after one holding the whole run.
    await conversation('cjk-exact', '2025-03-02', [['user', 'データベース設定の手順']]);
    const near = text(await search({ query: 'データベース設定' }));
    expect(near.indexOf('データベース設定の手順')).toBeGreaterThan(0);
    expect(near.indexOf('データベース設定の手順')).toBeLessThan(near.indexOf('データベースの設定を変更しました'));
    // Punctuation stays between the characters it separates, fullwidth or not; numerals are characters too.
    await conversation('cjk-punctuation', '2025-03-03', [
      ['user', '台北。京都へ行く'],
      ['user', '台北，京都！'],
      ['user', '二〇二四年の計画'],
      ['user', '第二。以上'],
    ]);
    const beijing = text(await search({ query: '北京' }));
    expect(beijing).not.toContain('台北。京都へ行く');
    expect(beijing).not.toContain('台北，京都！');
    expect(text(await search({ query: '二〇二四' }))).toMatch(/^1 result for "二〇二四"[^]*二〇二四年の計画/);
    expect(text(await search({ query: '二〇' }))).not.toContain('第二。以上');
    // A long message found by pairs only: the snippet shows where they are.
    await conversation('cjk-long', '2025-03-04', [['user', `${'日本語の文章です。'.repeat(40)}設定を変更した`]]);
    expect(text(await search({ query: '設定変更' }))).toContain('設定を変更した');
  });

  it('shows the accented word a folded query matched in the snippet', async () => {
    await conversation('long-accents', '2025-03-01', [['user', `${'filler words here '.repeat(30)}and then the Café Brasileira at the end`]]);
    expect(text(await search({ query: 'cafe' }))).toContain('Café Brasileira');
  });
});

describe('queryTerms and editDistance', () => {
  it('splits a query as the index does: distinct words in NFC and lower case, marks kept, at most 32 words of at most 64 characters', () => {
    expect(queryTerms('Café, CAFÉ and "São"-Paulo!')).toEqual(['café', 'and', 'são', 'paulo']);
    expect(queryTerms('Cafe\u0301 हिंदी')).toEqual(['café', 'हिंदी']);
    expect(queryTerms(' ,;- ')).toEqual([]);
    expect(queryTerms(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
    expect(queryTerms('x'.repeat(100))).toEqual(['x'.repeat(64)]);
  });

  it('foldLatin folds case and the diacritics of Latin letters only, as the tokenizer does', () => {
    expect(foldLatin('Café São ÅNGSTRÖM')).toBe('cafe sao angstrom');
    expect(foldLatin('データベース йогурт हिंदी')).toBe('データベース йогурт हिंदी');
  });

  it('counts insertions, deletions and substitutions, and stops past the limit', () => {
    expect(editDistance('kubernetes', 'kubernetes', 2)).toBe(0);
    expect(editDistance('kubernets', 'kubernetes', 1)).toBe(1);
    expect(editDistance('kuberentes', 'kubernetes', 2)).toBe(2);
    expect(editDistance('flight', 'fright', 1)).toBe(1);
    expect(editDistance('abc', 'xyz', 1)).toBe(2);
    expect(editDistance('short', 'much longer word', 2)).toBe(3);
  });
});

describe('snippetOf', () => {
  it('shows the text around the first match on one line, cut at spaces, with ellipses where it was cut', () => {
    const long = `${'lorem ipsum '.repeat(20)}the KUBERNETES\ncluster ${'dolor sit amet '.repeat(20)}`;
    const snippet = snippetOf(long, ['kubernetes']);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('the KUBERNETES cluster');
    expect(snippet.length).toBeLessThanOrEqual(80 + 160 + 2);
    expect(snippet).not.toMatch(/…\S*ipsu(?!m)/);
    expect(snippetOf('short text', ['text'])).toBe('short text');
  });
});

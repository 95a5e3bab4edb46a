import { describe, expect, it } from '@jest/globals';
import { InMemoryEventStore, sessionStreamId, type EventStore, type RecordedEvent } from '@oneclaw/core';
import { testCatalogue } from '@oneclaw/core/testing';
import { SessionRepository } from './session-repository';

/** Counts events read, to see that a cached session reads only what is new. */
function countingStore(inner: EventStore): { store: EventStore; read: () => number } {
  let read = 0;
  const store: EventStore = {
    append: (s, e, o) => inner.append(s, e, o),
    readStream: async (s, o) => {
      const events = await inner.readStream(s, o);
      read += events.length;
      return events;
    },
    readAll: (o) => inner.readAll(o),
    streamState: (s) => inner.streamState(s),
    close: () => inner.close(),
  };
  return { store, read: () => read };
}

describe('SessionRepository: cached projection keyed by revision, appends with the expected revision', () => {
  it('reads only the events after its cached revision, including those another writer (replica) appended', async () => {
    const inner = new InMemoryEventStore();
    const { store, read } = countingStore(inner);
    const mine = new SessionRepository(store, testCatalogue());
    const other = new SessionRepository(inner, testCatalogue());
    await mine.record('s', { type: 'StartSession', sessionId: 's', agentId: 'a' }, { commandId: 'c1' });
    for (let i = 0; i < 10; i++) await mine.record('s', { type: 'RecordUserMessage', messageId: `m${i}`, text: `t${i}` }, { commandId: `m${i}` });
    const before = read();
    await other.record('s', { type: 'RecordUserMessage', messageId: 'x', text: 'from another replica' }, { commandId: 'x' });
    const snapshot = await mine.get('s');
    expect(read() - before).toBe(1);
    expect(snapshot.revision).toBe(11);
    expect(snapshot.state.messages.at(-1)).toMatchObject({ text: 'from another replica' });
  });

  it('S5 concurrent writers on one session: every command lands once, revisions contiguous, nothing interleaved or lost', async () => {
    const store = new InMemoryEventStore();
    const writers = [new SessionRepository(store, testCatalogue()), new SessionRepository(store, testCatalogue())];
    await writers[0]!.record('s', { type: 'StartSession', sessionId: 's', agentId: 'a' }, { commandId: 'start' });
    await Promise.all(Array.from({ length: 20 }, (_, i) => writers[i % 2]!.record('s', { type: 'RecordUserMessage', messageId: `m${i}`, text: `t${i}` }, { commandId: `m${i}` })));
    const events = (await store.readStream(sessionStreamId('s'))) as RecordedEvent<{ type: string; data: { text?: string }; metadata: never }>[];
    expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
    expect(new Set(events.slice(1).map((e) => e.data.text)).size).toBe(20);
  });

  it('API-12 a stale expected revision (If-Match) is refused with precondition_failed and records nothing', async () => {
    const store = new InMemoryEventStore();
    const repo = new SessionRepository(store, testCatalogue());
    await repo.record('s', { type: 'StartSession', sessionId: 's', agentId: 'a' }, { commandId: 'start' });
    await repo.record('s', { type: 'RecordUserMessage', messageId: 'm', text: 't' }, { commandId: 'm' });
    await repo.record('s', { type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } }, { commandId: 'done' });
    await expect(repo.record('s', { type: 'ClearSession', reason: 'user' }, { commandId: 'c', expectedRevision: 0 })).rejects.toMatchObject({
      code: 'precondition_failed',
    });
    expect(await store.readStream(sessionStreamId('s'))).toHaveLength(3);
    await repo.record('s', { type: 'ClearSession', reason: 'user' }, { commandId: 'c', expectedRevision: 2 });
    expect(await store.readStream(sessionStreamId('s'))).toHaveLength(4);
  });

  it('a retried command the store acknowledges (same ids, already landed) is not folded in twice, so a later write of another replica is not skipped', async () => {
    const store = new InMemoryEventStore();
    const mine = new SessionRepository(store, testCatalogue());
    const other = new SessionRepository(store, testCatalogue());
    await mine.record('s', { type: 'StartSession', sessionId: 's', agentId: 'a' }, { commandId: 'start' });
    await mine.record('s', { type: 'ClearSession', reason: 'user' }, { commandId: 'clear-key' });
    // An Idempotency-Key retry: the same command id decides the same event, which the store acknowledges.
    const retried = await mine.record('s', { type: 'ClearSession', reason: 'user' }, { commandId: 'clear-key' });
    expect(retried.revision).toBe(1);
    expect(retried.state.eventCount).toBe(2);
    await other.record('s', { type: 'RecordUserMessage', messageId: 'x', text: 'from another replica' }, { commandId: 'x' });
    expect((await mine.get('s')).state.messages).toEqual([expect.objectContaining({ role: 'user', text: 'from another replica' })]);
  });

  it('F5 recordAll decides each command on the state the one before left and appends them in one append; a refusal records none', async () => {
    const inner = new InMemoryEventStore();
    const appends: string[][] = [];
    const store: EventStore = {
      append: (s, e, o) => {
        appends.push(e.map((x) => x.type));
        return inner.append(s, e, o);
      },
      readStream: (s, o) => inner.readStream(s, o),
      readAll: (o) => inner.readAll(o),
      streamState: (s) => inner.streamState(s),
      close: () => inner.close(),
    };
    const repo = new SessionRepository(store, testCatalogue());
    const started = await repo.record('s', { type: 'StartSession', sessionId: 's', agentId: 'a' }, { commandId: 'start' });
    const user = { command: { type: 'RecordUserMessage', messageId: 'm', text: 'hi', turnId: 't' } as const, options: { commandId: 's:t:1', correlationId: 't' } };
    const finished = {
      command: { type: 'RecordTurnFinished', reason: 'completed', detail: 'done', rounds: 0, usage: { inputTokens: 0, outputTokens: 0 } } as const,
      options: { commandId: 's:t:2', correlationId: 't' },
    };
    const opened = repo.preview(started, user.command, user.options);
    expect(opened.state.openTurn?.turnId).toBe('t');
    const preview = repo.preview(opened, finished.command, finished.options);
    expect(preview.revision).toBe(2);
    expect(preview.state.openTurn).toBeNull();
    // The preview appended nothing.
    expect(appends).toEqual([['SessionStarted']]);

    const recorded = await repo.recordAll('s', [user, finished]);
    expect(appends).toEqual([['SessionStarted'], ['MessageSent', 'TurnFinished']]);
    expect(recorded).toMatchObject({ revision: 2, state: { openTurn: null } });
    // The same ids as previewed: a retried append is still idempotent.
    expect(recorded.events.map((e) => e.metadata.eventId)).toEqual([...opened.events, ...preview.events].map((e) => e.metadata.eventId));

    const bad = { command: { ...finished.command, rounds: -1 }, options: { commandId: 's:u:2' } };
    await expect(repo.recordAll('s', [{ command: { ...user.command, messageId: 'm2', turnId: 'u' }, options: { commandId: 's:u:1' } }, bad])).rejects.toMatchObject({
      code: 'invalid_command',
    });
    expect(await inner.readStream(sessionStreamId('s'))).toHaveLength(3);
  });

  it('F5 recordAll appends the events preview decided while the session is still that state; after another write it decides again', async () => {
    const store = new InMemoryEventStore();
    let tick = 0;
    const clock = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++));
    const repo = new SessionRepository(store, testCatalogue(), clock);
    const started = await repo.record('s', { type: 'StartSession', sessionId: 's', agentId: 'a' }, { commandId: 'start' });
    const first = { command: { type: 'RecordUserMessage', messageId: 'm1', text: 'first' } as const, options: { commandId: 'c1' } };
    const decided = repo.preview(started, first.command, first.options);
    const same = await repo.recordAll('s', [first], { state: started.state, events: decided.events });
    // Not decided again: the preview's events (its clock reading included) are what was appended.
    expect(same.events).toEqual(decided.events);

    const second = { command: { type: 'RecordUserMessage', messageId: 'm2', text: 'second' } as const, options: { commandId: 'c2' } };
    const stale = repo.preview(same, second.command, second.options);
    await repo.record('s', { type: 'RenameSession', title: 'renamed' }, { commandId: 'rename' });
    const redecided = await repo.recordAll('s', [second], { state: same.state, events: stale.events });
    expect(redecided.events[0]?.metadata.occurredAt).not.toBe(stale.events[0]?.metadata.occurredAt);
    expect(redecided).toMatchObject({ revision: 3, state: { title: 'renamed' } });
    expect((await store.readStream(sessionStreamId('s'))).map((e) => e.revision)).toEqual([0, 1, 2, 3]);
  });
});

describe('SessionRepository: the session cache is bounded by approximate bytes (issue 17, memory)', () => {
  const start = (repo: SessionRepository, id: string) => repo.record(id, { type: 'StartSession', sessionId: id, agentId: 'a' }, { commandId: `start-${id}` });
  const say = (repo: SessionRepository, id: string, i: number, size: number) =>
    repo.record(id, { type: 'RecordUserMessage', messageId: `${id}-m${i}`, text: `${id} message ${i} `.padEnd(size, 'x') }, { commandId: `${id}-m${i}` });

  it('with huge sessions it stays under its byte bound, evicting the least recently used, and an evicted session reads back whole from the store', async () => {
    const inner = new InMemoryEventStore();
    const { store, read } = countingStore(inner);
    const evicted: string[] = [];
    const repo = new SessionRepository(store, testCatalogue(), undefined, undefined, { maxCachedBytes: 300_000, onEvict: (id) => evicted.push(id) });
    for (let s = 0; s < 6; s++) {
      await start(repo, `s${s}`);
      // About 100 KB each: three sessions fit, six do not.
      for (let i = 0; i < 10; i++) {
        await say(repo, `s${s}`, i, 10_000);
        expect(repo.cacheStats().bytes).toBeLessThanOrEqual(300_000);
      }
    }
    const stats = repo.cacheStats();
    expect(stats).toMatchObject({ sessions: 2, maxBytes: 300_000, evictions: 4 });
    expect(stats.bytes).toBeGreaterThan(200_000);
    expect(evicted).toEqual(['s0', 's1', 's2', 's3']);

    // s0 was evicted: its state comes from its whole stream again, the same as a fresh reader's.
    const before = read();
    const s0 = await repo.get('s0');
    expect(read() - before).toBe(11);
    const fresh = await new SessionRepository(inner, testCatalogue()).get('s0');
    expect(s0.revision).toBe(10);
    expect(s0.state).toEqual(fresh.state);
    expect(s0.state.messages.map((m) => ('text' in m ? m.text : undefined))).toEqual(Array.from({ length: 10 }, (_, i) => `s0 message ${i} `.padEnd(10_000, 'x')));
    // Reading it made it the most recent: it is cached again, and the oldest (s4) went.
    expect(evicted.at(-1)).toBe('s4');
    const again = read();
    await repo.get('s0');
    expect(read() - again).toBe(0);
    // A write to an evicted session decides on its full state and lands at the next revision.
    const recorded = await say(repo, 's4', 10, 10);
    expect(recorded.revision).toBe(11);
    expect(recorded.state.messages).toHaveLength(11);
  });

  it('a session larger than the whole bound is not cached and pushes no other session out; it still loads whole', async () => {
    const repo = new SessionRepository(new InMemoryEventStore(), testCatalogue(), undefined, undefined, { maxCachedBytes: 50_000 });
    await start(repo, 'small');
    await say(repo, 'small', 0, 100);
    await start(repo, 'huge');
    for (let i = 0; i < 8; i++) await say(repo, 'huge', i, 10_000);
    expect(repo.cacheStats()).toMatchObject({ sessions: 1, evictions: 0 });
    expect(repo.cacheStats().bytes).toBeLessThan(5_000);
    expect((await repo.get('huge')).state.messages).toHaveLength(8);
    expect((await repo.get('small')).state.messages).toHaveLength(1);
  });

  it('a bound of 0 caches nothing and every read still answers from the store', async () => {
    const repo = new SessionRepository(new InMemoryEventStore(), testCatalogue(), undefined, undefined, { maxCachedBytes: 0 });
    await start(repo, 's');
    await say(repo, 's', 0, 10);
    expect(repo.cacheStats()).toMatchObject({ sessions: 0, bytes: 0 });
    expect((await repo.get('s')).state.messages).toHaveLength(1);
  });
});

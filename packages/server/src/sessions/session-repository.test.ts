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
    await expect(repo.record('s', { type: 'ClearSession', reason: 'user' }, { commandId: 'c', expectedRevision: 0 })).rejects.toMatchObject({
      code: 'precondition_failed',
    });
    expect(await store.readStream(sessionStreamId('s'))).toHaveLength(2);
    await repo.record('s', { type: 'ClearSession', reason: 'user' }, { commandId: 'c', expectedRevision: 1 });
    expect(await store.readStream(sessionStreamId('s'))).toHaveLength(3);
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

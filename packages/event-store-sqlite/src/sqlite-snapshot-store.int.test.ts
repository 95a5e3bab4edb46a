import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import {
  decide,
  deterministicIds,
  evolve,
  initialSessionState,
  loadSessionState,
  replay,
  sessionSnapshotOf,
  sessionStreamId,
  type SessionCommand,
  type SessionEvent,
  type SessionState,
} from '@oneclaw/core';
import { describeSnapshotStoreContract, testCatalogue, testEvent } from '@oneclaw/core/testing';
import { SqliteEventStore } from './sqlite-event-store';

const tempDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-snapshots-'));

describeSnapshotStoreContract('SqliteSnapshotStore', () => {
  const dir = tempDir();
  const events = SqliteEventStore.open(path.join(dir, 'events.db'));
  return {
    snapshots: events.snapshotStore(),
    events,
    dispose: async () => {
      await events.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

/** `turns` question/answer turns of session `s`, as decide records them. */
function session(turns: number): SessionEvent[] {
  const history: SessionEvent[] = [];
  let state: SessionState = initialSessionState;
  let n = 0;
  const record = (command: SessionCommand): void => {
    const events = decide(command, state, { now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, n)), newId: deterministicIds(`c${n++}`), catalogue: testCatalogue() });
    for (const event of events) state = evolve(state, event);
    history.push(...events);
  };
  record({ type: 'StartSession', sessionId: 's', agentId: 'a' });
  for (let t = 0; t < turns; t++) {
    record({ type: 'RecordUserMessage', messageId: `u${t}`, text: `question ${t}` });
    record({ type: 'RecordAssistantMessage', messageId: `a${t}`, text: `answer ${t}`, toolCalls: [] });
  }
  return history;
}

describe('SqliteSnapshotStore in the event store file', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'events.db');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('SQL-10 a schema-1 store (events only) is migrated to 2 with its events kept and an empty snapshots table; reopening changes nothing', async () => {
    const v1 = new Database(file);
    v1.pragma('journal_mode = WAL');
    v1.exec(`CREATE TABLE events (
     position    INTEGER PRIMARY KEY AUTOINCREMENT,
     stream_id   TEXT    NOT NULL,
     revision    INTEGER NOT NULL,
     event_id    TEXT    NOT NULL,
     type        TEXT    NOT NULL,
     data        TEXT    NOT NULL,
     metadata    TEXT    NOT NULL,
     UNIQUE (stream_id, revision),
     UNIQUE (stream_id, event_id)
   ) STRICT;`);
    v1.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, 0, ?, ?, ?, ?)').run(
      'session-A',
      'e0',
      'TestEvent',
      '{"n":"e0"}',
      JSON.stringify(testEvent('e0').metadata),
    );
    v1.pragma('user_version = 1');
    v1.close();

    const store = SqliteEventStore.open(file);
    expect(store.connectionInfo().schemaVersion).toBe(2);
    expect((await store.readStream('session-A')).map((e) => e.data)).toEqual([{ n: 'e0' }]);
    expect(await store.snapshotStore().read('session-A', 'session')).toBeUndefined();
    expect(await store.snapshotStore().write({ streamId: 'session-A', projection: 'p', version: 1, revision: 0, eventId: 'e0', state: '{}', takenAt: 'now' })).toBe(true);
    await store.close();
    const again = SqliteEventStore.open(file);
    expect(again.connectionInfo().schemaVersion).toBe(2);
    expect((await again.snapshotStore().read('session-A', 'p'))?.state).toBe('{}');
    await again.close();
  });

  it('F4 a session loads from its snapshot and the events after it, after a reopen, to the state a full replay gives', async () => {
    const stream = sessionStreamId('s');
    const history = session(30);
    const store = SqliteEventStore.open(file);
    await store.append(stream, history.slice(0, 41), { expectedRevision: 'no_stream' });
    const early = await store.readStream(stream);
    expect(await store.snapshotStore().write(sessionSnapshotOf(stream, replay(early), early.at(-1)?.metadata.eventId as string, new Date()))).toBe(true);
    await store.append(stream, history.slice(41), { expectedRevision: 40 });
    await store.close();

    const reopened = SqliteEventStore.open(file);
    const loaded = await loadSessionState(reopened, reopened.snapshotStore(), stream);
    expect(loaded).toMatchObject({ source: 'snapshot', replayed: history.length - 41, revision: history.length - 1 });
    expect(loaded.state).toEqual(replay(await reopened.readStream(stream)));
    await reopened.close();
  });

  it('a read-only store serves snapshots and refuses to write them with storage_unavailable', async () => {
    const writer = SqliteEventStore.open(file);
    await writer.append('session-A', [testEvent('e0')], { expectedRevision: 'no_stream' });
    const snapshot = { streamId: 'session-A', projection: 'p', version: 1, revision: 0, eventId: 'e0', state: '{}', takenAt: 'now' };
    await writer.snapshotStore().write(snapshot);
    await writer.close();
    const reader = SqliteEventStore.open(file, { readonly: true });
    const snapshots = reader.snapshotStore();
    expect(await snapshots.read('session-A', 'p')).toEqual(snapshot);
    await expect(snapshots.write(snapshot)).rejects.toMatchObject({ code: 'storage_unavailable', details: { sqliteCode: 'SQLITE_READONLY' } });
    await reader.close();
    await expect(snapshots.read('session-A', 'p')).rejects.toMatchObject({ code: 'storage_unavailable' });
  });
});

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replay, SESSION_PROJECTION, SESSION_PROJECTION_VERSION, sessionStreamId, type SnapshotStore } from '@oneclaw/core';
import { testCatalogue } from '@oneclaw/core/testing';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import { SessionCheckpoints } from './session-checkpoints';
import { SessionRepository } from './session-repository';

/** Records `turns` user/assistant message pairs after the start: 1 + 2 × turns events. */
async function chat(repo: SessionRepository, turns: number, from = 0): Promise<void> {
  if (from === 0) await repo.record('s', { type: 'StartSession', sessionId: 's', agentId: 'a' }, { commandId: 'start' });
  for (let t = from; t < from + turns; t++) {
    await repo.record('s', { type: 'RecordUserMessage', messageId: `u${t}`, text: `question ${t}` }, { commandId: `u${t}` });
    await repo.record('s', { type: 'RecordAssistantMessage', messageId: `a${t}`, text: `answer ${t}`, toolCalls: [] }, { commandId: `a${t}` });
  }
}

describe('session snapshots through the repository, on a real SQLite file (F4, SQL-04)', () => {
  let dir: string;
  let store: SqliteEventStore;
  const logs: string[] = [];
  const checkpoints = (snapshots: SnapshotStore = store.snapshotStore(), every = 10) =>
    new SessionCheckpoints({ store, snapshots, every, log: (level, message) => logs.push(`${level}: ${message}`) });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-checkpoints-'));
    store = SqliteEventStore.open(path.join(dir, 'events.db'));
    logs.length = 0;
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('F4 writes a snapshot each time the stream passes a multiple of `every`; a cold repository loads from it and folds only the rest', async () => {
    const writer = checkpoints();
    const repo = new SessionRepository(store, testCatalogue(), undefined, writer);
    await chat(repo, 12); // 25 events: passes 10 and 20
    await writer.idle();
    expect(writer.stats).toMatchObject({ written: 2, failed: 0, refused: 0 });
    const snapshot = await store.snapshotStore().read(sessionStreamId('s'), SESSION_PROJECTION);
    expect(snapshot).toMatchObject({ version: SESSION_PROJECTION_VERSION });
    expect(snapshot?.revision).toBeGreaterThanOrEqual(19);

    const reader = checkpoints();
    const cold = await new SessionRepository(store, testCatalogue(), undefined, reader).get('s');
    expect(reader.stats).toMatchObject({ fromSnapshot: 1, replayed: 0, ignored: 0 });
    expect(cold.revision).toBe(24);
    expect(cold.state).toEqual(replay(await store.readStream(sessionStreamId('s'))));
    expect(cold.state).toEqual((await repo.get('s')).state);
  });

  it('SQL-04 a snapshot of another projection version is ignored and logged, the session replayed, and a fresh snapshot written', async () => {
    await chat(new SessionRepository(store, testCatalogue()), 4);
    const events = await store.readStream(sessionStreamId('s'));
    const last = events.at(-1)!;
    await store.snapshotStore().write({
      streamId: sessionStreamId('s'),
      projection: SESSION_PROJECTION,
      version: SESSION_PROJECTION_VERSION + 1,
      revision: last.revision,
      eventId: last.metadata.eventId,
      state: '{"a state":"evolve no longer builds"}',
      takenAt: new Date().toISOString(),
    });
    const reader = checkpoints();
    const loaded = await new SessionRepository(store, testCatalogue(), undefined, reader).get('s');
    expect(loaded.state).toEqual(replay(events));
    expect(reader.stats).toMatchObject({ replayed: 1, ignored: 1 });
    expect(logs.join('\n')).toContain(
      `snapshot was not used (version: snapshot version ${SESSION_PROJECTION_VERSION + 1}, projection version ${SESSION_PROJECTION_VERSION}); replayed 9 events`,
    );
    await reader.idle();
    expect(reader.stats.written).toBe(1);
    expect(await store.snapshotStore().read(sessionStreamId('s'), SESSION_PROJECTION)).toMatchObject({ version: SESSION_PROJECTION_VERSION, revision: 8 });

    const again = checkpoints();
    expect((await new SessionRepository(store, testCatalogue(), undefined, again).get('s')).state).toEqual(replay(events));
    expect(again.stats).toMatchObject({ fromSnapshot: 1, ignored: 0 });
  });

  it('F4 a snapshot store that fails never fails a command: every turn lands, the failure is counted and logged, loads replay', async () => {
    const failing: SnapshotStore = {
      read: () => Promise.reject(new Error('snapshot disk unplugged')),
      write: () => Promise.reject(new Error('snapshot disk unplugged')),
    };
    const broken = checkpoints(failing, 2);
    const repo = new SessionRepository(store, testCatalogue(), undefined, broken);
    await chat(repo, 5);
    await broken.idle();
    expect(await store.readStream(sessionStreamId('s'))).toHaveLength(11);
    expect(broken.stats.failed).toBeGreaterThan(0);
    expect(broken.stats.written).toBe(0);
    expect(logs.join('\n')).toMatch(/writing its snapshot failed, the session is replayed instead \(snapshot disk unplugged\)/);
    const cold = await new SessionRepository(store, testCatalogue(), undefined, checkpoints(failing)).get('s');
    expect(cold.state).toEqual(replay(await store.readStream(sessionStreamId('s'))));
  });

  it('a session that does not exist is not found and leaves no snapshot', async () => {
    const reader = checkpoints();
    await expect(new SessionRepository(store, testCatalogue(), undefined, reader).get('nobody')).rejects.toMatchObject({ code: 'session_not_found' });
    await reader.idle();
    expect(reader.stats.written).toBe(0);
  });
});

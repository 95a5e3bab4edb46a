import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import fs, { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import { ToolRegistry } from '@oneclaw/tool-registry';
import { SessionRepository } from '../sessions/session-repository';
import { collectAttachments } from './attachment-gc';
import { AttachmentStore } from './attachment-store';

const HOUR = 3_600_000;
/** A PNG signature and a different tail each: distinct files the store accepts as PNGs. */
const png = (tail: string) => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(tail)]);

describe('attachments gc: files no message refers to, over a real SQLite store and attachment folder', () => {
  let dir: string;
  let store: SqliteEventStore;
  let files: AttachmentStore;
  let sessions: SessionRepository;
  let step = 0;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-attachment-gc-'));
    store = SqliteEventStore.open(path.join(dir, 'events.db'));
    files = new AttachmentStore(path.join(dir, 'attachments'));
    sessions = new SessionRepository(store, new ToolRegistry(), () => new Date());
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const record = (sessionId: string, command: Parameters<SessionRepository['record']>[1]) => sessions.record(sessionId, command, { commandId: `cmd-${(step += 1)}` });
  const age = (name: string, hours: number) => {
    const then = new Date(Date.now() - hours * HOUR);
    utimesSync(path.join(files.dir, name), then, then);
  };
  const stored = () => readdirSync(files.dir).sort();

  it('removes old files no message names (with their names), keeps referenced ones (archived sessions too) and young ones; a dry run removes nothing', async () => {
    const sent = files.put(png('sent'), 'image/png', 'sent.png');
    const archived = files.put(png('archived'), 'image/png', 'archived.png');
    const orphan = files.put(png('orphan'), 'image/png', 'orphan.png');
    const fresh = files.put(png('fresh'), 'image/png', 'fresh.png');
    await record('live', { type: 'StartSession', sessionId: 'live', agentId: 'default' });
    await record('live', { type: 'RecordUserMessage', messageId: 'm1', text: 'look', attachments: [sent] });
    await record('gone', { type: 'StartSession', sessionId: 'gone', agentId: 'default' });
    await record('gone', { type: 'RecordUserMessage', messageId: 'm2', text: 'and this', attachments: [archived] });
    await record('gone', { type: 'ArchiveSession' });
    for (const ref of [sent, archived, orphan]) {
      age(ref.hash, 48);
      age(`${ref.hash}.json`, 48);
    }
    // Left by crashes: a temporary file, and a name whose file was never linked.
    writeFileSync(path.join(files.dir, '.tmp-0123456789abcdef'), 'half');
    age('.tmp-0123456789abcdef', 48);
    writeFileSync(path.join(files.dir, `${'e'.repeat(64)}.json`), '{"name":"x.png"}');
    age(`${'e'.repeat(64)}.json`, 48);
    const before = stored();

    const options = { minAgeMs: 24 * HOUR, now: Date.now() };
    const dry = await collectAttachments(store, files.dir, { ...options, dryRun: true });
    expect(dry).toEqual({
      referenced: 2,
      unreferenced: [{ hash: orphan.hash, bytes: orphan.bytes }],
      young: 1,
      leftovers: ['.tmp-0123456789abcdef', `${'e'.repeat(64)}.json`].sort(),
      failed: [],
    });
    expect(stored()).toEqual(before);

    expect(await collectAttachments(store, files.dir, { ...options, dryRun: false })).toEqual(dry);
    expect(stored()).toEqual([sent.hash, `${sent.hash}.json`, archived.hash, `${archived.hash}.json`, fresh.hash, `${fresh.hash}.json`].sort());
    expect(files.describe(orphan.hash)).toBeUndefined();
    expect(files.describe(sent.hash)).toEqual(sent);
  });

  it('an old file uploaded again is young again and stays until its message is sent', async () => {
    await record('live', { type: 'StartSession', sessionId: 'live', agentId: 'default' });
    const ref = files.put(png('again'), 'image/png', 'again.png');
    age(ref.hash, 48);
    files.put(png('again'), 'image/png', 'again.png');
    const report = await collectAttachments(store, files.dir, { minAgeMs: 24 * HOUR, now: Date.now(), dryRun: false });
    expect(report).toMatchObject({ unreferenced: [], young: 1 });
    expect(existsSync(path.join(files.dir, ref.hash))).toBe(true);
  });

  it('a store without any event is refused (store_empty) and nothing is removed: it cannot be the store the files came through', async () => {
    const orphan = files.put(png('elsewhere'), 'image/png', 'x.png');
    age(orphan.hash, 48);
    await expect(collectAttachments(store, files.dir, { minAgeMs: 24 * HOUR, now: Date.now(), dryRun: false })).rejects.toMatchObject({ code: 'store_empty' });
    expect(files.describe(orphan.hash)).toEqual(orphan);
  });

  it('a file that cannot be removed is reported as failed, not as removed', async () => {
    await record('live', { type: 'StartSession', sessionId: 'live', agentId: 'default' });
    const blocked = 'b'.repeat(64);
    // A directory where a file should be: unlink refuses it (EISDIR), as it would a read-only file system.
    mkdirSync(path.join(files.dir, blocked), { recursive: true });
    writeFileSync(path.join(files.dir, blocked, 'inside'), 'x');
    age(blocked, 48);
    const report = await collectAttachments(store, files.dir, { minAgeMs: 24 * HOUR, now: Date.now(), dryRun: false });
    expect(report.unreferenced).toEqual([]);
    expect(report.failed).toEqual([{ name: blocked, error: expect.stringMatching(/^E[A-Z]+$/) }]);
  });

  it('an upload of bytes the collection removes while it touches them is stored again, not lost', async () => {
    const ref = files.put(png('racing'), 'image/png', 'racing.png');
    const blob = path.join(files.dir, ref.hash);
    const touch = fs.utimesSync;
    // The collection unlinks the file and its name between the upload's link (EEXIST) and its touch.
    jest.spyOn(fs, 'utimesSync').mockImplementation((file, atime, mtime) => {
      if (file === blob && existsSync(blob)) {
        unlinkSync(blob);
        unlinkSync(`${blob}.json`);
      }
      return touch(file, atime, mtime);
    });
    expect(files.put(png('racing'), 'image/png', 'racing.png')).toEqual(ref);
    jest.restoreAllMocks();
    expect(files.read(ref.hash)).toEqual(png('racing'));
    expect(files.describe(ref.hash)).toEqual(ref);
  });

  it('a store with no attachment folder yet has nothing to collect', async () => {
    expect(await collectAttachments(store, path.join(dir, 'never-made'), { minAgeMs: 0, now: Date.now(), dryRun: false })).toEqual({
      referenced: 0,
      unreferenced: [],
      young: 0,
      leftovers: [],
      failed: [],
    });
  });
});

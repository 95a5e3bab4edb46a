import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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
    });
    expect(stored()).toEqual(before);

    expect(await collectAttachments(store, files.dir, { ...options, dryRun: false })).toEqual(dry);
    expect(stored()).toEqual([sent.hash, `${sent.hash}.json`, archived.hash, `${archived.hash}.json`, fresh.hash, `${fresh.hash}.json`].sort());
    expect(files.describe(orphan.hash)).toBeUndefined();
    expect(files.describe(sent.hash)).toEqual(sent);
  });

  it('an old file uploaded again is young again and stays until its message is sent', async () => {
    const ref = files.put(png('again'), 'image/png', 'again.png');
    age(ref.hash, 48);
    files.put(png('again'), 'image/png', 'again.png');
    const report = await collectAttachments(store, files.dir, { minAgeMs: 24 * HOUR, now: Date.now(), dryRun: false });
    expect(report).toMatchObject({ unreferenced: [], young: 1 });
    expect(existsSync(path.join(files.dir, ref.hash))).toBe(true);
  });

  it('a store with no attachment folder yet has nothing to collect', async () => {
    expect(await collectAttachments(store, path.join(dir, 'never-made'), { minAgeMs: 0, now: Date.now(), dryRun: false })).toEqual({
      referenced: 0,
      unreferenced: [],
      young: 0,
      leftovers: [],
    });
  });
});

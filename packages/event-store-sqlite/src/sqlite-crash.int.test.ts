import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { RecordedEvent } from '@oneclaw/core';
import { CRASH_STREAMS, PROBE_STREAM, RACE_STREAM, crashEvent } from './sqlite-crash-writer.fixture';
import { SqliteEventStore } from './sqlite-event-store';

// Children run the TypeScript source through a small @swc/core require hook (see
// scripts/register-typescript.js), so these tests always exercise the code in src/, never a stale dist/.
const LOADER = path.resolve(__dirname, '../../../scripts/register-typescript.js');
const WRITER = path.join(__dirname, 'sqlite-crash-writer.fixture.ts');
const KILL_RUNS = 25;
// Root ignores file permissions, so permission tests run their child as `nobody` when we are root.
const UNPRIVILEGED_UID = process.getuid?.() === 0 ? 65534 : undefined;

class Child {
  readonly lines: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly process: ChildProcessWithoutNullStreams;
  private partial = '';
  private waiters: (() => void)[] = [];

  constructor(args: string[], options: { fileSizeLimitBlocks?: number; uid?: number } = {}) {
    const node = [process.execPath, '-r', LOADER, WRITER, ...args];
    const ids = options.uid === undefined ? {} : { uid: options.uid, gid: options.uid };
    this.process =
      options.fileSizeLimitBlocks === undefined
        ? spawn(node[0] as string, node.slice(1), ids)
        : // RLIMIT_FSIZE binds root too, unlike chmod: a portable way to make writes fail for real.
          spawn('/bin/sh', ['-c', `ulimit -f ${options.fileSizeLimitBlocks} && exec "$0" "$@"`, ...node], ids);
    this.process.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (this.partial + chunk).split('\n');
      this.partial = parts.pop() ?? '';
      this.lines.push(...parts);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.process.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.process.on('close', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => this.waiters.splice(0).forEach((wake) => wake()));
  }

  /** Resolves with the first line from `from` on that matches; fails if the child exits first. */
  async waitForLine(match: (line: string) => boolean, from = 0): Promise<string> {
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      const line = this.lines.slice(from).find(match);
      if (line !== undefined) return line;
      if (exited) throw new Error(`child exited without the expected line; stderr:\n${this.stderr}`);
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  send(line: string): void {
    this.process.stdin.write(`${line}\n`);
  }

  end(): void {
    this.process.stdin.end();
  }

  kill(): void {
    this.process.kill('SIGKILL');
  }
}

interface Ack {
  readonly streamId: string;
  readonly lastRevision: number;
  readonly eventIds: readonly string[];
}

function parseAcks(lines: readonly string[]): Ack[] {
  return lines
    .filter((line) => line.startsWith('ACK '))
    .map((line) => {
      const [, streamId, revision, ids] = line.split(' ');
      return { streamId: streamId as string, lastRevision: Number(revision), eventIds: (ids as string).split(',') };
    });
}

function integrityCheck(file: string): unknown {
  const db = new Database(file);
  try {
    return db.pragma('integrity_check', { simple: true });
  } finally {
    db.close();
  }
}

/**
 * What must hold after any crash: the file is intact, every acknowledged event is there with its
 * content at its revision, every batch is whole and in order, revisions have no gaps. Problems are
 * collected in plain code and asserted once: thousands of `expect` calls per run are too slow.
 */
async function verifyAfterCrash(file: string, acks: readonly Ack[]): Promise<number> {
  expect(integrityCheck(file)).toBe('ok');
  const store = SqliteEventStore.open(file);
  const problems: string[] = [];
  try {
    const byId = new Map<string, RecordedEvent>();
    for (const streamId of CRASH_STREAMS) {
      const events = await store.readStream(streamId);
      events.forEach((e, i) => {
        if (e.revision !== i) problems.push(`${streamId}: revision ${e.revision} at index ${i}`);
        byId.set(e.metadata.eventId, e);
      });
      for (let i = 0; i < events.length;) {
        const id = (events[i] as RecordedEvent).metadata.eventId;
        const [, batch, index, size] = /^(.+-b\d+)-(\d+)-of-(\d+)$/.exec(id) ?? [];
        if (batch === undefined || index !== '0') {
          problems.push(`${streamId}@${i}: '${id}' does not start a batch`);
          break;
        }
        const n = Number(size);
        for (let j = 0; j < n; j++) {
          const actual = events[i + j];
          const expected = JSON.stringify(crashEvent(batch, j, n, streamId));
          if (!actual || JSON.stringify({ type: actual.type, data: actual.data, metadata: actual.metadata }) !== expected) {
            problems.push(`${streamId}@${i + j}: expected ${expected}, found ${actual ? actual.metadata.eventId : 'nothing'}`);
          }
        }
        i += n;
      }
    }
    for (const ack of acks) {
      ack.eventIds.forEach((id, i) => {
        const revision = ack.lastRevision - ack.eventIds.length + 1 + i;
        const found = byId.get(id);
        if (found?.streamId !== ack.streamId || found.revision !== revision) {
          problems.push(`ACKed ${id} should be at ${ack.streamId}@${revision}, found ${found ? `${found.streamId}@${found.revision}` : 'nothing'}`);
        }
      });
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect((await store.readAll()).length).toBe(byId.size);
    return byId.size;
  } finally {
    await store.close();
  }
}

const randomBetween = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min + 1));

describe('SqliteEventStore across processes and crashes', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-crash-'));
    file = path.join(dir, 'events.db');
  });
  afterEach(() => {
    // A failed permission test may leave the directory read-only, which would stop the cleanup.
    fs.chmodSync(dir, 0o700);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function killRuns(mode: string[], writer = 'write'): Promise<void> {
    let acked = 0;
    let stored = 0;
    for (let run = 0; run < KILL_RUNS; run++) {
      const child = new Child([writer, file, `r${run}`, ...mode]);
      // The clock starts at READY, not at spawn: Node's start-up would otherwise eat most kill times.
      await child.waitForLine((line) => line === 'READY');
      await new Promise((resolve) => setTimeout(resolve, randomBetween(50, 400)));
      child.kill();
      expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const acks = parseAcks(child.lines);
      acked += acks.length;
      // The group writer's stale appends must each have failed alone with a conflict.
      expect(child.lines.filter((line) => line.startsWith('STALE_'))).toEqual([]);
      const total = await verifyAfterCrash(file, acks);
      // Each run continues the streams the killed runs left behind.
      expect(total).toBeGreaterThanOrEqual(stored);
      stored = total;
    }
    // Guards against a writer that never got going, which would make every check above vacuous.
    expect(acked).toBeGreaterThan(KILL_RUNS);
  }

  it(`SQL-02 SIGKILL during appends, ${KILL_RUNS} times: file intact, every ACKed event present, no partial batch, no gaps`, async () => {
    await killRuns([]);
  }, 60_000);

  it(`SQL-02 group commit: SIGKILL while appends to three streams (and a stale one that must conflict) share each commit, ${KILL_RUNS} times: every ACKed append of a group present, no partial batch, no gaps`, async () => {
    await killRuns([], 'group');
  }, 60_000);

  it(`SQL-03 SIGKILL while the writer also runs wal_checkpoint(TRUNCATE), ${KILL_RUNS} times: same guarantees`, async () => {
    await killRuns(['checkpoint']);
  }, 60_000);

  it('SQL-05 two processes append with the same expected revision at once: one commits, the other gets stream_revision_conflict', async () => {
    const seed = SqliteEventStore.open(file);
    await seed.append(RACE_STREAM, [crashEvent('seed', 0, 1, RACE_STREAM)], { expectedRevision: 'no_stream' });
    await seed.close();
    const children = [new Child(['race', file, 'p']), new Child(['race', file, 'q'])] as const;
    await Promise.all(children.map((c) => c.waitForLine((line) => line === 'READY')));

    const winners: string[] = [];
    for (let round = 0; round < 10; round++) {
      const from = children.map((c) => c.lines.length);
      for (const child of children) child.send(`GO ${round}`);
      const replies = await Promise.all(children.map((c, i) => c.waitForLine((line) => /^(OK|ERR) /.test(line), from[i])));
      const ok = replies.filter((r) => r.startsWith('OK '));
      expect(ok).toHaveLength(1);
      expect(ok[0]?.split(' ')[1]).toBe(String(round + 1));
      expect(replies.find((r) => r.startsWith('ERR '))?.split(' ')[1]).toBe('stream_revision_conflict');
      winners.push(ok[0]?.split(' ')[2] as string);
    }
    for (const child of children) child.end();
    for (const child of children) expect((await child.exited).code).toBe(0);

    const store = SqliteEventStore.open(file);
    const events = await store.readStream(RACE_STREAM);
    expect(events.map((e) => e.metadata.eventId)).toEqual(['seed-0-of-1', ...winners]);
    await store.close();
  }, 30_000);

  it('SQL-05/SQL-06 three processes read-then-append on one stream: only typed conflicts, never SQLITE_BUSY; every OK is stored once', async () => {
    const attempts = 150;
    const children = ['x', 'y', 'z'].map((tag) => new Child(['hammer', file, tag, String(attempts)]));
    // The child's stderr in the comparison: a failure says why the child stopped.
    for (const child of children) expect({ ...(await child.exited), stderr: child.stderr }).toEqual({ code: 0, signal: null, stderr: '' });

    const replies = children.flatMap((c) => c.lines.filter((line) => /^(OK|ERR) /.test(line)));
    expect(replies).toHaveLength(3 * attempts);
    const failures = replies.filter((r) => r.startsWith('ERR '));
    expect(failures.filter((r) => r.split(' ')[1] !== 'stream_revision_conflict')).toEqual([]);
    const committed = replies
      .filter((r) => r.startsWith('OK '))
      .map((r) => r.split(' '))
      .map(([, revision, id]) => [Number(revision), id] as const)
      .sort(([a], [b]) => a - b);

    const store = SqliteEventStore.open(file);
    const events = await store.readStream(RACE_STREAM);
    expect(events.map((e) => [e.revision, e.metadata.eventId])).toEqual(committed);
    await store.close();
  }, 30_000);

  it('SQL-08 disk full (simulated with RLIMIT_FSIZE, which binds root too): writes fail as storage_unavailable; reads go on; the file is intact and writable again', async () => {
    const child = new Child(['fill', file, 'f'], { fileSizeLimitBlocks: 1024 });
    expect(await child.exited).toEqual({ code: 0, signal: null });
    const acked = child.lines.filter((line) => line.startsWith('ACK ')).map((line) => line.split(' ')[2]);
    expect(acked.length).toBeGreaterThan(0);
    const failed = child.lines.find((line) => line.startsWith('FAILED '))?.split(' ') ?? [];
    expect(failed[1]).toBe('storage_unavailable');
    expect(failed[2]).toMatch(/^SQLITE_(FULL|IOERR)/);
    // The failing store kept serving reads, and had written exactly what it acknowledged.
    expect(child.lines.find((line) => line.startsWith('READ '))).toBe(`READ ${acked.length} ${acked.at(-1)}`);

    expect(integrityCheck(file)).toBe('ok');
    const store = SqliteEventStore.open(file);
    expect((await store.readStream('session-fill')).map((e) => e.metadata.eventId)).toEqual(acked);
    await store.append('session-fill', [crashEvent('after', 0, 1, 'session-fill')], { expectedRevision: acked.length - 1 });
    expect(await store.streamState('session-fill')).toBe(acked.length);
    await store.close();
  }, 30_000);

  it(`SQL-08 chmod 0444 on the file${UNPRIVILEGED_UID === undefined ? '' : ' (child runs as uid 65534: root ignores chmod)'}: opens, append is storage_unavailable, reads go on; with the directory 0555 too and no -shm, open itself is storage_unavailable`, async () => {
    const store = SqliteEventStore.open(file);
    await store.append(PROBE_STREAM, [crashEvent('before', 0, 1, PROBE_STREAM)], { expectedRevision: 'no_stream' });
    await store.close();
    fs.chmodSync(file, 0o444);
    fs.chmodSync(dir, 0o777);

    const probe = async (tag: string): Promise<string[]> => {
      const child = new Child(['probe', file, tag], { uid: UNPRIVILEGED_UID });
      expect(await child.exited).toEqual({ code: 0, signal: null });
      return child.lines;
    };
    expect(await probe('p1')).toEqual(['APPEND_FAILED storage_unavailable SQLITE_READONLY', 'READ before-0-of-1']);

    for (const side of ['-wal', '-shm']) fs.rmSync(file + side, { force: true });
    fs.chmodSync(dir, 0o555);
    expect(await probe('p2')).toEqual([expect.stringMatching(/^OPEN_FAILED storage_unavailable SQLITE_(READONLY|CANTOPEN)/)]);
    fs.chmodSync(dir, 0o700);
    fs.chmodSync(file, 0o644);
    expect(integrityCheck(file)).toBe('ok');
  }, 30_000);
});

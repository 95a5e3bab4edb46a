/**
 * Child process for sqlite-crash.int.test.ts (run with `node -r scripts/register-typescript.js`).
 * It only ever prints a success line after `append` resolved, so anything the parent saw
 * acknowledged must be in the file after a SIGKILL.
 *
 *   write  <file> <tag> [checkpoint]  append batches of 1-3 events to three streams until killed
 *   group  <file> <tag>               per round, one append to each stream at once (one group commit)
 *                                     plus a stale one that must conflict, until killed
 *   race   <file> <tag>               per stdin line `GO <expected>`, append one event with that revision
 *   hammer <file> <tag> <attempts>    read the revision, append with it, repeat
 *   fill   <file> <tag>               append until the disk (a file-size limit) refuses a write
 *   probe  <file> <tag>               open, try one append, read: reports what worked
 */
import Database from 'better-sqlite3';
import { createInterface } from 'node:readline';
import type { EventEnvelope, StreamState } from '@oneclaw/core';
import { SqliteEventStore } from './sqlite-event-store';

export const CRASH_STREAMS = ['session-crash-0', 'session-crash-1', 'session-crash-2'] as const;
export const RACE_STREAM = 'session-race';
export const PROBE_STREAM = 'session-probe';

/** Event `index` of a batch, with an id that says which batch it belongs to: `<batch>-<index>-of-<size>`. */
export function crashEvent(batch: string, index: number, size: number, streamId: string, padding = 0): EventEnvelope {
  const eventId = `${batch}-${index}-of-${size}`;
  return {
    type: 'CrashTestEvent',
    data: { batch, index, size, streamId, text: `payload of ${eventId} ✓`, padding: 'x'.repeat(padding) },
    metadata: { eventId, occurredAt: '2026-01-01T00:00:00.000Z', correlationId: batch, causationId: batch, schemaVersion: 1 },
  };
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function codeOf(error: unknown): string {
  return (error as { code?: string }).code ?? 'untyped';
}

function sqliteCodeOf(error: unknown): string {
  return String((error as { details?: { sqliteCode?: string } }).details?.sqliteCode);
}

// Yielding lets stdout drain; an ACK lost in a kill is harmless, a false one would not be.
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function write(store: SqliteEventStore, file: string, tag: string, checkpoint: boolean): Promise<void> {
  const checkpointer = checkpoint ? new Database(file) : undefined;
  const revisions = new Map<string, StreamState>();
  for (const streamId of CRASH_STREAMS) revisions.set(streamId, await store.streamState(streamId));
  say('READY');
  for (let k = 0; ; k++) {
    const streamId = CRASH_STREAMS[k % CRASH_STREAMS.length] as string;
    const size = 1 + Math.floor(Math.random() * 3);
    const events = Array.from({ length: size }, (_, i) => crashEvent(`${tag}-b${k}`, i, size, streamId));
    const result = await store.append(streamId, events, { expectedRevision: revisions.get(streamId) ?? 'no_stream' });
    revisions.set(streamId, result.nextExpectedRevision);
    say(`ACK ${streamId} ${result.nextExpectedRevision} ${events.map((e) => e.metadata.eventId).join(',')}`);
    checkpointer?.pragma('wal_checkpoint(TRUNCATE)');
    await tick();
  }
}

/**
 * Group commit under SIGKILL: each round makes one append per stream in the same tick (they share
 * one transaction and one fsync) and one with a stale revision, which must fail alone. An ACK is
 * printed for each append as its own promise resolves.
 */
async function group(store: SqliteEventStore, tag: string): Promise<void> {
  const revisions = new Map<string, StreamState>();
  for (const streamId of CRASH_STREAMS) revisions.set(streamId, await store.streamState(streamId));
  say('READY');
  for (let k = 0; ; k++) {
    const appends = CRASH_STREAMS.map(async (streamId, s) => {
      const size = 1 + Math.floor(Math.random() * 3);
      const events = Array.from({ length: size }, (_, i) => crashEvent(`${tag}s${s}-b${k}`, i, size, streamId));
      const result = await store.append(streamId, events, { expectedRevision: revisions.get(streamId) ?? 'no_stream' });
      revisions.set(streamId, result.nextExpectedRevision);
      say(`ACK ${streamId} ${result.nextExpectedRevision} ${events.map((e) => e.metadata.eventId).join(',')}`);
    });
    const staleStream = CRASH_STREAMS[k % CRASH_STREAMS.length] as string;
    const stale = store.append(staleStream, [crashEvent(`${tag}-stale${k}`, 0, 1, staleStream)], { expectedRevision: 'no_stream' }).then(
      () => say(`STALE_ACKED ${tag}-stale${k}`),
      (error: unknown) => {
        if (codeOf(error) !== 'stream_revision_conflict') say(`STALE_ERROR ${codeOf(error)}`);
      },
    );
    await Promise.all([...appends, stale]);
    await tick();
  }
}

async function race(store: SqliteEventStore, tag: string): Promise<void> {
  say('READY');
  let round = 0;
  for await (const line of createInterface({ input: process.stdin })) {
    const expected = Number(line.split(' ')[1]);
    const event = crashEvent(`${tag}-r${round++}`, 0, 1, RACE_STREAM);
    try {
      const result = await store.append(RACE_STREAM, [event], { expectedRevision: expected });
      say(`OK ${result.nextExpectedRevision} ${event.metadata.eventId}`);
    } catch (error) {
      say(`ERR ${codeOf(error)} ${event.metadata.eventId}`);
    }
  }
}

async function hammer(store: SqliteEventStore, tag: string, attempts: number): Promise<void> {
  say('READY');
  for (let i = 0; i < attempts; i++) {
    const event = crashEvent(`${tag}-h${i}`, 0, 1, RACE_STREAM);
    try {
      const result = await store.append(RACE_STREAM, [event], { expectedRevision: await store.streamState(RACE_STREAM) });
      say(`OK ${result.nextExpectedRevision} ${event.metadata.eventId}`);
    } catch (error) {
      say(`ERR ${codeOf(error)} ${event.metadata.eventId} ${(error as Error).message}`);
    }
    await tick();
  }
}

async function fill(store: SqliteEventStore, tag: string): Promise<void> {
  // Over RLIMIT_FSIZE a write gets SIGXFSZ, which would kill us; ignored, the write fails with EFBIG.
  process.on('SIGXFSZ', () => undefined);
  say('READY');
  let revision: StreamState = 'no_stream';
  for (let i = 0; ; i++) {
    const event = crashEvent(`${tag}-f${i}`, 0, 1, 'session-fill', 2000);
    try {
      revision = (await store.append('session-fill', [event], { expectedRevision: revision })).nextExpectedRevision;
      say(`ACK ${revision} ${event.metadata.eventId}`);
    } catch (error) {
      say(`FAILED ${codeOf(error)} ${sqliteCodeOf(error)}`);
      break;
    }
  }
  const stored = await store.readStream('session-fill');
  say(`READ ${stored.length} ${stored.at(-1)?.metadata.eventId ?? '-'}`);
}

async function probe(file: string, tag: string): Promise<void> {
  let store: SqliteEventStore;
  try {
    store = SqliteEventStore.open(file);
  } catch (error) {
    say(`OPEN_FAILED ${codeOf(error)} ${sqliteCodeOf(error)}`);
    return;
  }
  try {
    await store.append(PROBE_STREAM, [crashEvent(tag, 0, 1, PROBE_STREAM)], { expectedRevision: 'any' });
    say('APPENDED');
  } catch (error) {
    say(`APPEND_FAILED ${codeOf(error)} ${sqliteCodeOf(error)}`);
  }
  say(`READ ${(await store.readStream(PROBE_STREAM)).map((e) => e.metadata.eventId).join(',')}`);
  await store.close();
}

async function main(): Promise<void> {
  const [mode, file, tag, extra] = process.argv.slice(2);
  if (!mode || !file || !tag) throw new Error('usage: sqlite-crash-writer.fixture.ts <mode> <file> <tag> [extra]');
  if (mode === 'probe') return probe(file, tag);
  const store = SqliteEventStore.open(file);
  if (mode === 'write') await write(store, file, tag, extra === 'checkpoint');
  else if (mode === 'group') await group(store, tag);
  else if (mode === 'race') await race(store, tag);
  else if (mode === 'hammer') await hammer(store, tag, Number(extra));
  else if (mode === 'fill') await fill(store, tag);
  else throw new Error(`unknown mode ${mode}`);
  await store.close();
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}

/**
 * The fake's storage: one in-memory transaction log with KurrentDB's write and read rules, and
 * no gRPC. Revisions and positions are bigints because they are 64-bit on the wire.
 */
import { randomUUID } from 'node:crypto';

export interface FakeRecord {
  readonly streamName: string;
  readonly revision: bigint;
  /** Lower-case canonical UUID, as KurrentDB returns it. */
  readonly id: string;
  readonly type: string;
  readonly contentType: string;
  readonly data: Uint8Array;
  readonly customMetadata: Uint8Array;
  /** .NET ticks (100 ns) since the Unix epoch: what KurrentDB puts in the `created` metadata. */
  readonly created: bigint;
  /**
   * Log position. Every record here is "self-committed" (KurrentDB's implicit transaction for a
   * gRPC append), so its commit and prepare positions are both this value, in stream reads and
   * in `$all` reads alike.
   */
  readonly position: bigint;
}

export interface ProposedRecord {
  readonly id: string;
  readonly type: string;
  readonly contentType: string;
  readonly data: Uint8Array;
  readonly customMetadata: Uint8Array;
}

export type FakeExpectedState =
  { readonly kind: 'any' } | { readonly kind: 'no_stream' } | { readonly kind: 'stream_exists' } | { readonly kind: 'revision'; readonly revision: bigint };

export type FakeAppendOutcome =
  | { readonly kind: 'success'; readonly currentRevision: bigint; readonly position: bigint }
  | { readonly kind: 'wrong_expected_version'; readonly current: bigint | 'no_stream' }
  | { readonly kind: 'stream_deleted' };

export type FakeTombstoneOutcome =
  | { readonly kind: 'success'; readonly position: bigint }
  | { readonly kind: 'wrong_expected_version'; readonly current: bigint | 'no_stream' }
  | { readonly kind: 'stream_deleted' };

export type FakeFilter =
  { readonly on: 'event_type' | 'stream_name'; readonly regex: string } | { readonly on: 'event_type' | 'stream_name'; readonly prefixes: readonly string[] };

export type StreamFrom = 'start' | 'end' | bigint;
export type AllFrom = 'start' | 'end' | bigint;

/** Where the log starts: a real node has written epoch and system records before any user event. */
const FIRST_POSITION = 1024n;
/** Rough size of a prepare record's fixed part, so positions advance like byte offsets, not counters. */
const RECORD_OVERHEAD = 96n;
/**
 * A tombstone record's revision: KurrentDB's `EventNumber.DeletedStream` (long.MaxValue), the
 * event number a node gives its `$streamDeleted` record (in `$all` reads too).
 */
export const TOMBSTONE_REVISION = 2n ** 63n - 1n;
/** The event type of a tombstone record (KurrentDB's `SystemEventTypes.StreamDeleted`). */
export const STREAM_DELETED_EVENT_TYPE = '$streamDeleted';

export class FakeKurrentDbLog {
  private readonly records: FakeRecord[] = [];
  private readonly streams = new Map<string, FakeRecord[]>();
  private readonly positions = new Set<bigint>();
  /** Streams a tombstone closed for good. */
  private readonly tombstoned = new Set<string>();
  private nextPosition = FIRST_POSITION;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /**
   * KurrentDB's append rules (an optimistic-concurrency check, then an idempotency check by event id):
   * - an exact revision (or `no_stream`, i.e. -1) that matches the stream's last revision writes;
   * - one that is behind is an idempotent success when the events right after it carry the same ids,
   *   else a wrong-expected-version failure. Content is never compared: KurrentDB does not;
   * - `stream_exists` fails on a missing stream, then behaves like `any`;
   * - `any` writes unless the first id is already in the stream: then it is idempotent when the
   *   whole batch follows in order, and a failure otherwise (KurrentDB's "corrupted idempotency").
   * The batch is all-or-nothing. A deleted (tombstoned) stream refuses every append, whatever
   * the expected state, before any other check (KurrentDB's commit check looks at that first).
   */
  append(streamName: string, expected: FakeExpectedState, proposed: readonly ProposedRecord[]): FakeAppendOutcome {
    if (this.isDeleted(streamName)) return { kind: 'stream_deleted' };
    const stream = this.streams.get(streamName) ?? [];
    const current = BigInt(stream.length) - 1n;
    const currentState = current < 0n ? ('no_stream' as const) : current;
    const wrong: FakeAppendOutcome = { kind: 'wrong_expected_version', current: currentState };

    if (expected.kind === 'revision' || expected.kind === 'no_stream') {
      const revision = expected.kind === 'no_stream' ? -1n : expected.revision;
      if (revision === current) return this.write(streamName, stream, proposed);
      if (revision > current) return wrong;
      return this.idempotentAt(stream, Number(revision + 1n), proposed) ?? wrong;
    }
    if (expected.kind === 'stream_exists' && current < 0n) return wrong;
    const first = proposed[0];
    const at = first === undefined ? -1 : stream.findIndex((r) => r.id === first.id);
    if (at < 0) return this.write(streamName, stream, proposed);
    return this.idempotentAt(stream, at, proposed) ?? wrong;
  }

  /**
   * KurrentDB's hard delete: one `$streamDeleted` record (revision `TOMBSTONE_REVISION`, no data,
   * no metadata, a fresh id), after the same commit check as an append: a deleted stream first,
   * then the expected state (`any` always passes; `no_stream`, `stream_exists` and an exact
   * revision must match, as for an append; the tombstone's fresh id never makes it idempotent).
   * It goes into `$all` like any record but never into the stream's events. From then on the
   * stream, and its `$$` metadata stream, refuse appends, reads and another tombstone. A stream
   * that never existed can be tombstoned too (with `any` or `no_stream`), as on a node.
   */
  tombstone(streamName: string, expected: FakeExpectedState): FakeTombstoneOutcome {
    if (this.isDeleted(streamName)) return { kind: 'stream_deleted' };
    const current = BigInt(this.streams.get(streamName)?.length ?? 0) - 1n;
    const matches =
      expected.kind === 'any' ||
      (expected.kind === 'no_stream' && current < 0n) ||
      (expected.kind === 'stream_exists' && current >= 0n) ||
      (expected.kind === 'revision' && expected.revision === current);
    if (!matches) return { kind: 'wrong_expected_version', current: current < 0n ? 'no_stream' : current };
    const record = this.logRecord(
      streamName,
      TOMBSTONE_REVISION,
      { id: randomUUID(), type: STREAM_DELETED_EVENT_TYPE, contentType: 'application/octet-stream', data: new Uint8Array(), customMetadata: new Uint8Array() },
      this.created(),
    );
    this.tombstoned.add(streamName);
    return { kind: 'success', position: record.position };
  }

  /** Tombstoned, or the `$$` metadata stream of a tombstoned stream (deleted with it on a node). */
  isDeleted(streamName: string): boolean {
    return this.tombstoned.has(streamName) || (streamName.startsWith('$$') && this.tombstoned.has(streamName.slice(2)));
  }

  readStream(streamName: string, forwards: boolean, from: StreamFrom, count: bigint): FakeRecord[] | 'not_found' | 'deleted' {
    if (this.isDeleted(streamName)) return 'deleted';
    const stream = this.streams.get(streamName);
    if (stream === undefined) return 'not_found';
    const max = clampCount(count);
    if (forwards) {
      if (from === 'end') return [];
      const start = from === 'start' ? 0 : Number(from);
      return stream.slice(start, start + max);
    }
    // Backwards from a revision includes that revision, like KurrentDB.
    const last = from === 'end' ? stream.length - 1 : Math.min(Number(from), stream.length - 1);
    const out: FakeRecord[] = [];
    for (let i = last; i >= 0 && out.length < max; i--) out.push(stream[i] as FakeRecord);
    return out;
  }

  /**
   * `$all` in log order. Forwards from a position includes the record at it; backwards from a
   * position starts before it (KurrentDB's rule). `count` counts records that pass the filter.
   * A position must be where a record starts, 0, or the end of the log: KurrentDB refuses an
   * offset inside a record ("Trying to read from an invalid position"), so the fake does too.
   */
  readAll(forwards: boolean, from: AllFrom, count: bigint, filter?: FakeFilter): FakeRecord[] | 'invalid_position' {
    if (typeof from === 'bigint' && from !== 0n && from !== this.nextPosition && !this.positions.has(from)) return 'invalid_position';
    const max = clampCount(count);
    const matches = filter === undefined ? () => true : matcher(filter);
    const out: FakeRecord[] = [];
    if (forwards) {
      if (from === 'end') return [];
      for (const record of this.records) {
        if (out.length >= max) break;
        if (from !== 'start' && record.position < from) continue;
        if (matches(record)) out.push(record);
      }
      return out;
    }
    if (from === 'start') return [];
    for (let i = this.records.length - 1; i >= 0 && out.length < max; i--) {
      const record = this.records[i] as FakeRecord;
      if (from !== 'end' && record.position >= from) continue;
      if (matches(record)) out.push(record);
    }
    return out;
  }

  /** Every record in log order, system records included (for tests: "nothing half-written"). */
  all(): readonly FakeRecord[] {
    return [...this.records];
  }

  private idempotentAt(stream: readonly FakeRecord[], start: number, proposed: readonly ProposedRecord[]): FakeAppendOutcome | undefined {
    if (proposed.length === 0) return undefined;
    const same = proposed.every((p, i) => stream[start + i]?.id === p.id);
    if (!same) return undefined;
    const last = stream[start + proposed.length - 1] as FakeRecord;
    return { kind: 'success', currentRevision: last.revision, position: last.position };
  }

  private write(streamName: string, stream: FakeRecord[], proposed: readonly ProposedRecord[]): FakeAppendOutcome {
    const created = this.created();
    for (const p of proposed) stream.push(this.logRecord(streamName, BigInt(stream.length), p, created));
    const last = stream[stream.length - 1];
    // An empty append to a missing stream leaves it missing, as on a real node.
    if (last === undefined) return { kind: 'success', currentRevision: -1n, position: this.nextPosition };
    this.streams.set(streamName, stream);
    return { kind: 'success', currentRevision: last.revision, position: last.position };
  }

  /** Puts one record at the end of the log (`$all`); the caller files it in its stream, if any. */
  private logRecord(streamName: string, revision: bigint, p: ProposedRecord, created: bigint): FakeRecord {
    const record: FakeRecord = { ...p, streamName, revision, created, position: this.nextPosition };
    this.nextPosition += RECORD_OVERHEAD + BigInt(p.data.length + p.customMetadata.length + p.type.length + streamName.length);
    this.records.push(record);
    this.positions.add(record.position);
    return record;
  }

  /** .NET ticks (100 ns) since the Unix epoch. */
  private created(): bigint {
    return BigInt(this.now().getTime()) * 10_000n;
  }
}

function clampCount(count: bigint): number {
  return count > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Math.max(0, Number(count));
}

function matcher(filter: FakeFilter): (record: FakeRecord) => boolean {
  const field = (record: FakeRecord): string => (filter.on === 'event_type' ? record.type : record.streamName);
  if ('regex' in filter) {
    const regex = new RegExp(filter.regex);
    return (record) => regex.test(field(record));
  }
  return (record) => filter.prefixes.some((prefix) => field(record).startsWith(prefix));
}

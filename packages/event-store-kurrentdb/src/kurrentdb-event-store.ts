import {
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  START,
  WrongExpectedVersionError,
  jsonEvent,
  streamNameFilter,
  type AppendStreamState,
  type Direction,
  type JSONType,
  type Position,
  type ReadPosition,
  type RecordedEvent as KurrentRecordedEvent,
} from '@kurrent/kurrentdb-client';
import { StreamsClient } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_grpc_pb';
import {
  DEFAULT_EVENT_STORE_LIMITS,
  InvalidEventError,
  StorageUnavailableError,
  StreamRevisionConflictError,
  fingerprintOf,
  prepareAppend,
  resolveRetry,
  type AppendOptions,
  type AppendResult,
  type EventEnvelope,
  type EventMetadata,
  type EventStore,
  type EventStoreLimits,
  type ExpectedRevision,
  type PreparedEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StoredEventMatch,
  type StreamState,
} from '@oneclaw/core';
import { KurrentDbConfigError, connectionStringError, isInvalidPositionError, redactConnectionString, toStoreError } from './kurrentdb-errors';
import { kurrentEventId } from './kurrentdb-event-ids';
import { KurrentDbSnapshotStore } from './kurrentdb-snapshot-store';
import { SNAPSHOT_STREAM_MARKER, eventStreamsPattern, readStreamEvents } from './kurrentdb-streams';

export interface KurrentDbEventStoreOptions extends Partial<EventStoreLimits> {
  /**
   * Put before every stream name in KurrentDB (`<prefix>session-1`, and the snapshot streams
   * `<prefix>snapshot-...`), and `readAll` returns only streams with it. Lets several
   * deployments, or test runs, share one cluster. Default: none.
   */
  readonly streamPrefix?: string;
  /**
   * How many of a stream's latest events an append reads back to find event ids that are already
   * stored (retries, and reused ids with other content). A retry's own slot, right after the
   * revision it expected, is always checked, however old. Default 200.
   */
  readonly idempotencyWindow?: number;
  /** Deadline of one append call, in ms. Default: the client's (`defaultDeadline` in the connection string, 10 s). */
  readonly appendDeadlineMs?: number;
}

const DEFAULT_IDEMPOTENCY_WINDOW = 200;
/** Page size of the backwards scan that serves a `readAll` from a position inside a record. */
const SCAN_PAGE = 500;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The `EventStore` port on KurrentDB (`@kurrent/kurrentdb-client`), for running several server
 * replicas against one cluster. It passes the same contract suite as the in-memory and SQLite stores.
 *
 * Mapping:
 * - Streams: our stream id is the KurrentDB stream name (after `streamPrefix`, if set).
 * - Expected revision: a number n becomes revision `BigInt(n)`; `no_stream`, `stream_exists` and
 *   `any` become the client's NO_STREAM, STREAM_EXISTS and ANY.
 * - Event ids: see `kurrentEventId` (a UUID is kept, anything else becomes a UUID v5 of it). The
 *   envelope's metadata, our original `eventId` included, is the event's KurrentDB metadata JSON,
 *   so reads give back our ids exactly.
 * - Revisions: KurrentDB's 64-bit stream revision as a number (exact up to 2^53).
 * - Positions: KurrentDB's commit position as a number. Every event written by a gRPC append is
 *   "self-committed", so its commit and prepare positions are both its byte offset in the log:
 *   unique, strictly increasing in `$all`, and the same in stream reads and `$all` reads. Positions
 *   are offsets, not counters (they jump by each record's size). `readAll({ fromPosition: p })`
 *   reads from `{ commit: p, prepare: p }`; for a `p` inside a record, which KurrentDB refuses, it
 *   scans back from the end instead, so `last.position + 1` works too (cheap near the end of the
 *   log, slow far from it).
 * - `readAll` is `$all` filtered on the node by stream name: the streams that start with
 *   `streamPrefix` (any, without one), minus system streams (`$...`) and snapshot streams
 *   (`<streamPrefix>snapshot-...`, `snapshotStore()`). A `$`-typed event inside one of those
 *   streams (a tombstone, a link another application wrote) is dropped after the read, and the
 *   store reads on until `maxCount` events are left or the log ends: a page shorter than
 *   `maxCount` still means the end of the log.
 * - Snapshots: `snapshotStore()` keeps them in KurrentDB too, one stream per projection and
 *   stream (kurrentdb-snapshot-store.ts). Stream ids starting with `snapshot-` are refused, so
 *   no stream of events is ever named like a snapshot stream.
 *
 * Idempotency: KurrentDB deduplicates by event id only when a retry's expected revision points at
 * the stored copy, and never compares content. So before appending, this store reads the stream's
 * last `idempotencyWindow` events (and the retry's slot), and uses the core's `resolveRetry` like
 * every adapter: the same ids with the same content are acknowledged with the original result,
 * the same id with other content is an `IdempotencyConflictError`. Not covered: an id older than
 * the window re-sent somewhere other than its slot (at a new revision, or with `any`) is written
 * again; and of two appends of the same ids at the same moment, KurrentDB itself acknowledges the
 * second without comparing content.
 *
 * Errors: `WrongExpectedVersionError` becomes `StreamRevisionConflictError` (actual revision from
 * the server); unavailable, deadline (gRPC 14 / 4, in both of the client's error shapes) and other
 * server failures become `StorageUnavailableError`; a node's max-append-size refusal becomes
 * `PayloadTooLargeError`; a stream someone tombstoned answers appends and reads with
 * `StreamDeletedError` (`stream_deleted`, HTTP 410) (EST-19: it can never be written again).
 * Limits are checked before any I/O, with the core's `prepareAppend`.
 */
export class KurrentDbEventStore implements EventStore {
  private closed = false;
  private readonly limits: EventStoreLimits;
  private readonly streamPrefix: string;
  private readonly idempotencyWindow: number;
  private readonly appendDeadlineMs: number | undefined;
  private snapshots: KurrentDbSnapshotStore | undefined;

  private constructor(
    private readonly client: KurrentDBClient,
    /** The connection string without credentials, for messages. */
    readonly target: string,
    options: KurrentDbEventStoreOptions,
  ) {
    this.limits = { maxAppendBytes: options.maxAppendBytes ?? DEFAULT_EVENT_STORE_LIMITS.maxAppendBytes };
    this.streamPrefix = options.streamPrefix ?? '';
    this.idempotencyWindow = options.idempotencyWindow ?? DEFAULT_IDEMPOTENCY_WINDOW;
    this.appendDeadlineMs = options.appendDeadlineMs;
  }

  /**
   * Creates the store. The client connects lazily, so this does no I/O: an unreachable cluster
   * shows up as `StorageUnavailableError` on the first call. A connection string the client cannot
   * parse, or bad options, throw `KurrentDbConfigError` (code `invalid_config`).
   */
  static async connect(connectionString: string, options: KurrentDbEventStoreOptions = {}): Promise<KurrentDbEventStore> {
    checkOptions(options);
    let client: KurrentDBClient;
    try {
      client = KurrentDBClient.connectionString(connectionString);
    } catch (error) {
      throw connectionStringError(String(connectionString), error);
    }
    return new KurrentDbEventStore(client, redactConnectionString(connectionString), options);
  }

  async append(streamId: string, events: readonly EventEnvelope[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    const expected = options?.expectedRevision;
    const prepared = prepareAppend(streamId, events, expected, this.limits);
    assertKurrentNames(streamId, prepared);
    const appendBytes = prepared.reduce((sum, e) => sum + Buffer.byteLength(e.data) + Buffer.byteLength(e.metadata), 0);
    try {
      return await this.appendChecked(streamId, prepared, expected);
    } catch (error) {
      throw toStoreError(error, `append to '${streamId}' in`, { streamId, appendBytes });
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<readonly RecordedEvent[]> {
    this.assertOpen();
    const maxCount = countOf(options.maxCount);
    if (maxCount === 0) return [];
    try {
      const from = BigInt(Math.max(0, Math.trunc(options.fromRevision ?? 0)));
      const events = await readStreamEvents(this.client, this.streamName(streamId), FORWARDS, from, maxCount);
      return events.map((e) => this.toRecorded(e));
    } catch (error) {
      throw toStoreError(error, `read '${streamId}' from`, { streamId });
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<readonly RecordedEvent[]> {
    this.assertOpen();
    const maxCount = countOf(options.maxCount);
    if (maxCount === 0) return [];
    const fromPosition = Math.trunc(options.fromPosition ?? 0);
    try {
      let events: KurrentRecordedEvent[];
      if (fromPosition <= 0) {
        events = await this.readOwnForwards(START, maxCount);
      } else {
        try {
          events = await this.readOwnForwards({ commit: BigInt(fromPosition), prepare: BigInt(fromPosition) }, maxCount);
        } catch (error) {
          if (!isInvalidPositionError(error)) throw error;
          events = await this.readAllFromOffset(fromPosition, maxCount);
        }
      }
      return events.map((e) => this.toRecorded(e));
    } catch (error) {
      throw toStoreError(error, 'read all events from');
    }
  }

  async streamState(streamId: string): Promise<StreamState> {
    this.assertOpen();
    try {
      const [last] = await readStreamEvents(this.client, this.streamName(streamId), BACKWARDS, END, 1);
      return last === undefined ? 'no_stream' : Number(last.revision);
    } catch (error) {
      throw toStoreError(error, `read the state of '${streamId}' from`, { streamId });
    }
  }

  /**
   * Projection snapshots in KurrentDB, on this store's client and stream prefix, each write checked
   * against this store's stream (kurrentdb-snapshot-store.ts). One per store: it remembers which
   * snapshot streams already have their `$maxCount`.
   */
  snapshotStore(): KurrentDbSnapshotStore {
    this.snapshots ??= new KurrentDbSnapshotStore(this.client, this.streamPrefix, this, () => this.assertOpen());
    return this.snapshots;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.dispose();
    // dispose() only cancels open calls; the gRPC channel would stay open (and keep a test
    // process alive). The client has no public way to close it, so close it through the
    // Streams client it caches; all of its gRPC clients share that one channel.
    try {
      const getGrpcClient = (this.client as unknown as { getGRPCClient(c: typeof StreamsClient, name: string): Promise<StreamsClient> }).getGRPCClient;
      (await getGrpcClient(StreamsClient, 'close')).close();
    } catch {
      // Nothing to close (never connected, or a cluster that cannot be discovered right now).
    }
  }

  /** Retry detection, then the append itself; KurrentDB's optimistic-concurrency check is the final word. */
  private async appendChecked(streamId: string, prepared: readonly PreparedEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const stream = this.streamName(streamId);
    const ids = prepared.map((e) => kurrentEventId(e.eventId));
    const retry = resolveRetry(streamId, prepared, await this.findStored(stream, ids, expected));
    if (retry.kind === 'duplicate') return retry.result;

    const proposed = prepared.map((e, i) =>
      jsonEvent({
        id: ids[i] as string,
        type: e.type,
        // Parsed back from the strict JSON the core produced: the client serializes it once more, to the same text.
        data: JSON.parse(e.data) as JSONType,
        metadata: JSON.parse(e.metadata) as JSONType,
      }),
    );
    try {
      const result = await this.client.appendToStream(stream, proposed, {
        streamState: toStreamState(expected),
        ...(this.appendDeadlineMs === undefined ? {} : { deadline: this.appendDeadlineMs }),
      });
      const position = result.position ?? (await this.lastPosition(stream));
      return { nextExpectedRevision: Number(result.nextExpectedRevision), position: portPosition(position, streamId) };
    } catch (error) {
      if (!isWrongExpectedVersion(error)) throw error;
      // Someone appended between our read and our write. It may have been this very batch (a
      // concurrent retry): look again before calling it a conflict, like every other adapter.
      const again = resolveRetry(streamId, prepared, await this.findStored(stream, ids, expected));
      if (again.kind === 'duplicate') return again.result;
      throw new StreamRevisionConflictError(streamId, expected, actualState(error.actualState));
    }
  }

  /** For each id, the stored event with that KurrentDB id, if it is in the window or in the retry's slot. */
  private async findStored(stream: string, ids: readonly string[], expected: ExpectedRevision): Promise<(StoredEventMatch | undefined)[]> {
    const found = new Map<string, StoredEventMatch>();
    const remember = (e: KurrentRecordedEvent): void => {
      found.set(e.id.toLowerCase(), {
        revision: Number(e.revision),
        position: portPosition(e.position, stream),
        fingerprint: fingerprintOf(e.type, e.data),
      });
    };
    const tail = await readStreamEvents(this.client, stream, BACKWARDS, END, this.idempotencyWindow);
    tail.forEach(remember);
    // A retry's events sit right after the revision it expected, however far back that is now.
    const slot = expected === 'no_stream' ? 0 : typeof expected === 'number' ? expected + 1 : undefined;
    const oldest = tail.at(-1)?.revision;
    if (slot !== undefined && oldest !== undefined && BigInt(slot) < oldest) {
      (await readStreamEvents(this.client, stream, FORWARDS, BigInt(slot), ids.length)).forEach(remember);
    }
    return ids.map((id) => found.get(id));
  }

  private async lastPosition(stream: string): Promise<Position | undefined> {
    const [last] = await readStreamEvents(this.client, stream, BACKWARDS, END, 1);
    return last?.position;
  }

  /** `$all` as the node filters it (see the class comment), `$`-typed events still in. */
  private async readAllRaw(direction: Direction, fromPosition: ReadPosition, maxCount: number): Promise<KurrentRecordedEvent[]> {
    const filter = streamNameFilter({ regex: eventStreamsPattern(this.streamPrefix) });
    const out: KurrentRecordedEvent[] = [];
    for await (const resolved of this.client.readAll({ direction, fromPosition, maxCount, filter, requiresLeader: true })) {
      if (resolved.event) out.push(resolved.event);
    }
    return out;
  }

  /**
   * `$all` forwards from a position, `$`-typed events left out, until `maxCount` events are kept
   * or the node's page comes back short. The node fills its page before that filter, so one page
   * can keep fewer than asked although more follow; callers (`GlobalFollower`) take a short page
   * for the end of the log, so this reads on. Each further page starts at the last event read
   * (forwards from a position includes it, so it is skipped) and asks for what is still missing,
   * or for as many as were dropped so far if that is more: a long run of `$`-typed events costs a
   * few reads that double in size, not one read per event.
   */
  private async readOwnForwards(from: ReadPosition, maxCount: number): Promise<KurrentRecordedEvent[]> {
    const own: KurrentRecordedEvent[] = [];
    let dropped = 0;
    let resume: Position | undefined;
    for (;;) {
      const asked = resume === undefined ? maxCount : Math.min(Math.max(maxCount - own.length, dropped) + 1, Number.MAX_SAFE_INTEGER);
      const page = await this.readAllRaw(FORWARDS, resume ?? from, asked);
      for (const event of page) {
        if (resume !== undefined && portPosition(event.position, event.streamId) <= Number(resume.commit)) continue;
        if (isOwnEvent(event)) own.push(event);
        else dropped++;
      }
      const last = page.at(-1);
      if (own.length >= maxCount || page.length < asked || last === undefined) return own.slice(0, maxCount);
      resume = usablePosition(last.position, last.streamId);
    }
  }

  /**
   * Events at or after an offset that is not an event's position: scan back from the end to it.
   * It keeps every own event down to the offset before it cuts `maxCount`, so its pages are never
   * short for the reason `readOwnForwards` reads on.
   */
  private async readAllFromOffset(fromPosition: number, maxCount: number): Promise<KurrentRecordedEvent[]> {
    const newestFirst: KurrentRecordedEvent[] = [];
    let from: ReadPosition = END;
    for (;;) {
      const page = await this.readAllRaw(BACKWARDS, from, SCAN_PAGE);
      for (const event of page) {
        if (portPosition(event.position, event.streamId) < fromPosition) return newestFirst.reverse().slice(0, maxCount);
        if (isOwnEvent(event)) newestFirst.push(event);
      }
      const oldest = page.at(-1);
      if (page.length < SCAN_PAGE || oldest?.position === undefined) return newestFirst.reverse().slice(0, maxCount);
      // Backwards from a position is exclusive, so the oldest event is not read twice.
      from = oldest.position;
    }
  }

  private toRecorded(event: KurrentRecordedEvent): RecordedEvent {
    const streamId = event.streamId.startsWith(this.streamPrefix) ? event.streamId.slice(this.streamPrefix.length) : event.streamId;
    return {
      type: event.type,
      // Binary events are not ours (we write JSON only); they come back as base64 text, to stay JSON.
      data: event.isJson ? event.data : Buffer.from(event.data as Uint8Array).toString('base64'),
      metadata: isEnvelopeMetadata(event.metadata) ? event.metadata : foreignMetadata(event),
      streamId,
      revision: Number(event.revision),
      position: portPosition(event.position, event.streamId),
    };
  }

  private streamName(streamId: string): string {
    return `${this.streamPrefix}${streamId}`;
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageUnavailableError(`The KurrentDB event store (${this.target}) is closed.`, { target: this.target });
  }
}

function checkOptions(options: KurrentDbEventStoreOptions): void {
  const { streamPrefix, idempotencyWindow, appendDeadlineMs, maxAppendBytes } = options;
  if (streamPrefix !== undefined && (typeof streamPrefix !== 'string' || streamPrefix.startsWith('$') || streamPrefix.length > 100)) {
    throw new KurrentDbConfigError(`The KurrentDB stream prefix '${String(streamPrefix)}' is not valid: use up to 100 characters, not starting with '$' (system streams).`);
  }
  const positive = (name: string, value: number | undefined): void => {
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new KurrentDbConfigError(`The KurrentDB event store option ${name}=${String(value)} is not valid: use a whole number above 0.`);
    }
  };
  positive('idempotencyWindow', idempotencyWindow);
  positive('appendDeadlineMs', appendDeadlineMs);
  positive('maxAppendBytes', maxAppendBytes);
}

/** `$` starts KurrentDB's system streams and event types, `snapshot-` our snapshot streams; `readAll` leaves those out. */
function assertKurrentNames(streamId: string, prepared: readonly PreparedEvent[]): void {
  if (streamId.startsWith('$')) {
    throw new InvalidEventError(`Stream id '${streamId}' starts with '$', which KurrentDB reserves for system streams.`, { streamId });
  }
  if (streamId.startsWith(SNAPSHOT_STREAM_MARKER)) {
    throw new InvalidEventError(`Stream id '${streamId}' starts with '${SNAPSHOT_STREAM_MARKER}', which this store keeps for snapshot streams.`, { streamId });
  }
  const system = prepared.find((e) => e.type.startsWith('$'));
  if (system) {
    throw new InvalidEventError(`Event type '${system.type}' starts with '$', which KurrentDB reserves for system events.`, {
      streamId,
      eventId: system.eventId,
    });
  }
}

function toStreamState(expected: ExpectedRevision): AppendStreamState {
  return typeof expected === 'number' ? BigInt(expected) : expected;
}

function actualState(actual: unknown): StreamState {
  return typeof actual === 'bigint' ? Number(actual) : 'no_stream';
}

function countOf(maxCount: number | undefined): number {
  return maxCount === undefined ? Number.MAX_SAFE_INTEGER : Math.max(0, Math.trunc(maxCount));
}

/** The commit position as a number (see the class comment); refused rather than rounded. */
function portPosition(position: Position | undefined, where: string): number {
  return Number(usablePosition(position, where).commit);
}

function usablePosition(position: Position | undefined, where: string): Position {
  if (position === undefined || position.commit < 0n || position.commit > MAX_SAFE) {
    throw new StorageUnavailableError(
      `KurrentDB returned an event of '${where}' without a usable log position (${String(position?.commit)}). This KurrentDB version is not supported.`,
      {
        reason: 'unsupported_server',
      },
    );
  }
  return position;
}

function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return error instanceof WrongExpectedVersionError || (error as { type?: unknown } | null)?.type === 'wrong-expected-version';
}

/** Not a `$`-typed event (a tombstone, a link) that sits in a stream the `$all` filter lets through. */
function isOwnEvent(event: KurrentRecordedEvent): boolean {
  return !event.type.startsWith('$');
}

function isEnvelopeMetadata(metadata: unknown): metadata is EventMetadata {
  return typeof metadata === 'object' && metadata !== null && typeof (metadata as { eventId?: unknown }).eventId === 'string';
}

/** An event another application wrote: its KurrentDB id and creation time stand in for our envelope. */
function foreignMetadata(event: KurrentRecordedEvent): EventMetadata {
  return {
    eventId: event.id,
    occurredAt: event.created.toISOString(),
    correlationId: event.id,
    causationId: event.id,
    schemaVersion: 0,
  };
}

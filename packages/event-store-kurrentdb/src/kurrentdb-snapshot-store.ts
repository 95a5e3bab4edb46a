import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { ANY, BACKWARDS, END, binaryEvent, type KurrentDBClient, type RecordedEvent as KurrentRecordedEvent } from '@kurrent/kurrentdb-client';
import { StorageCorruptError, type EventStore, type SnapshotStore, type StoredSnapshot } from '@oneclaw/core';
import { toStoreError } from './kurrentdb-errors';
import { readStreamEvents, snapshotStreamName } from './kurrentdb-streams';

/** The type of every snapshot event. */
export const SNAPSHOT_EVENT_TYPE = 'Snapshot';
/** Snapshots a snapshot stream keeps (its `$maxCount`): only the latest is ever read. */
const SNAPSHOTS_KEPT = 1;
/** Snapshot streams whose `$maxCount` this store remembers having set; past it, it forgets them all (setting it again is harmless). */
const MAX_REMEMBERED_STREAMS = 10_000;
/** Fastest gzip: a 10,000-event session's 1.6 MiB state takes about 6 ms, on libuv's thread pool. */
const GZIP_LEVEL = 1;
/**
 * The most a snapshot's data may unzip to: 64 MiB, 64 times the 1 MiB a node accepts per append
 * by default (MaxAppendSize). Gzip can inflate about 1,000-fold, so without a bound 1 MiB from
 * anyone who can write to the stream could come back as a gigabyte of text. A real state
 * compresses far less: the 10,000-event test session's 1.6 MiB of JSON gzips to 85 KiB, 19-fold,
 * and text with less repetition less; at that ratio a state that fits the default append size
 * unzips to about 20 MiB, well under the bound. Past it (possible only on a node whose
 * MaxAppendSize was raised), the snapshot is unreadable and the session is replayed: a cost,
 * not an error.
 */
export const DEFAULT_MAX_SNAPSHOT_STATE_BYTES = 64 * 1024 * 1024;

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export interface KurrentDbSnapshotStoreOptions {
  /** The most a snapshot's state may unzip to, in bytes; over it, `read` is `storage_corrupt`. Default `DEFAULT_MAX_SNAPSHOT_STATE_BYTES`. */
  readonly maxStateBytes?: number;
}

/** What a snapshot event's metadata holds: the snapshot without its state (the event's data), and how the state is encoded. */
type SnapshotFields = Omit<StoredSnapshot, 'state'> & { readonly encoding: 'gzip' };

/**
 * Snapshots in KurrentDB itself (`KurrentDbEventStore.snapshotStore()`), so a replica loads a long
 * session from its latest checkpoint instead of replaying every event (docs/event-store.md,
 * "Snapshots"). Snapshots are a cache: losing any costs a replay, nothing more.
 *
 * - One stream per (projection, stream): `<streamPrefix>snapshot-<projection>:<streamId>`
 *   (`snapshotStreamName`). The event store refuses stream ids starting with `snapshot-` and its
 *   `readAll` leaves those streams out, so the session list never sees a snapshot.
 * - A snapshot is one event, type `Snapshot`: its data is the state text's UTF-8 bytes, gzipped
 *   (binary), its metadata a JSON object with the other fields and `encoding: "gzip"`. An event
 *   must fit the node's MaxAppendSize (1 MiB by default) and a 10,000-event session's state is
 *   about 1.6 MiB of JSON: gzip keeps such states well under it, and the text still comes back
 *   byte for byte. The latest snapshot is the stream's last event (one read backwards); every
 *   write appends (expected state any), so the last write wins, even one of an older revision.
 * - Old snapshots: the stream's metadata sets `$maxCount` 1, so a node serves only the last event
 *   and scavenging reclaims the others. Before this store's first write to each stream it reads
 *   the stream's metadata and, unless `$maxCount` is 1 already, writes it back with `$maxCount`
 *   1 and everything else kept (an operator's `$acl`, custom keys); it remembers the stream per
 *   store, so a restarted replica reads it once more and writes nothing. A write whose metadata
 *   cannot be read or set fails without appending: a snapshot stream never grows without that
 *   limit. Between that read and write, a change another client makes to the metadata can be
 *   lost (the client gives no revision to expect); it would take two writers within
 *   milliseconds, once per stream. The fake KurrentDB stores the metadata but does not enforce it.
 * - A snapshot's data unzips to at most `maxStateBytes` (`DEFAULT_MAX_SNAPSHOT_STATE_BYTES`);
 *   more is `storage_corrupt`, as for data that does not unzip.
 * - Errors map as the event store's (`toStoreError`): an outage is `StorageUnavailableError`, a
 *   state over the node's MaxAppendSize is `PayloadTooLargeError`.
 */
export class KurrentDbSnapshotStore implements SnapshotStore {
  private readonly limited = new Set<string>();
  private readonly maxStateBytes: number;

  constructor(
    private readonly client: KurrentDBClient,
    private readonly streamPrefix: string,
    /** The event store of the same client and prefix: the log a write is checked against. */
    private readonly log: Pick<EventStore, 'readStream'>,
    private readonly assertOpen: () => void,
    options: KurrentDbSnapshotStoreOptions = {},
  ) {
    this.maxStateBytes = options.maxStateBytes ?? DEFAULT_MAX_SNAPSHOT_STATE_BYTES;
  }

  async read(streamId: string, projection: string): Promise<StoredSnapshot | undefined> {
    this.assertOpen();
    const stream = snapshotStreamName(this.streamPrefix, projection, streamId);
    let last: KurrentRecordedEvent | undefined;
    try {
      [last] = await readStreamEvents(this.client, stream, BACKWARDS, END, 1);
    } catch (error) {
      const unprefixed = snapshotStreamName('', projection, streamId);
      throw toStoreError(error, `read the snapshot '${unprefixed}' from`, { streamId: unprefixed });
    }
    return last === undefined ? undefined : snapshotOf(last, streamId, projection, this.maxStateBytes);
  }

  /**
   * KurrentDB has no transaction across two streams, so the check that the log holds the
   * snapshot's event and the snapshot's append are two calls, not one statement as on SQLite or
   * PostgreSQL. That is enough: KurrentDB never rewrites an event in a stream; a stream's events
   * can only be deleted (the stream deleted or tombstoned) or truncated (`$tb`, `$maxCount`,
   * `$maxAge`), and the event store does none of these to session streams. Should that happen
   * between the check and the append, the stored snapshot is ahead of its stream, and the reader
   * checks exactly that on every load (`loadSessionState`): it reads the stream from the
   * snapshot's revision and uses the snapshot only if the event there has the snapshot's event
   * id; with no event there (`ahead`) or another one (`other_history`) it ignores the snapshot,
   * replays the stream from the start, and the server writes a new one. (A tombstoned stream
   * cannot be read at all, snapshot or not.) The race can cost a replay, never a wrong state.
   */
  async write(snapshot: StoredSnapshot): Promise<boolean> {
    this.assertOpen();
    if (!(await this.logHolds(snapshot))) return false;
    const { streamId, projection, state, ...rest } = snapshot;
    const fields: SnapshotFields = { streamId, projection, ...rest, encoding: 'gzip' };
    const stream = snapshotStreamName(this.streamPrefix, projection, streamId);
    const data = await gzipAsync(Buffer.from(state, 'utf8'), { level: GZIP_LEVEL });
    try {
      await this.limitOnce(stream);
      await this.client.appendToStream(stream, binaryEvent({ type: SNAPSHOT_EVENT_TYPE, data, metadata: fields }), { streamState: ANY });
    } catch (error) {
      const unprefixed = snapshotStreamName('', projection, streamId);
      throw toStoreError(error, `write the snapshot '${unprefixed}' to`, { streamId: unprefixed, appendBytes: data.length, snapshot: true });
    }
    return true;
  }

  /** Whether the event store's stream holds the snapshot's event at its revision (from the leader). */
  private async logHolds(snapshot: StoredSnapshot): Promise<boolean> {
    if (!Number.isSafeInteger(snapshot.revision) || snapshot.revision < 0) return false;
    const [own] = await this.log.readStream(snapshot.streamId, { fromRevision: snapshot.revision, maxCount: 1 });
    return own !== undefined && own.revision === snapshot.revision && own.metadata.eventId === snapshot.eventId;
  }

  private async limitOnce(stream: string): Promise<void> {
    if (this.limited.has(stream)) return;
    const { metadata } = await this.client.getStreamMetadata(stream, { requiresLeader: true });
    if (metadata?.maxCount !== SNAPSHOTS_KEPT) await this.client.setStreamMetadata(stream, { ...metadata, maxCount: SNAPSHOTS_KEPT });
    if (this.limited.size >= MAX_REMEMBERED_STREAMS) this.limited.clear();
    this.limited.add(stream);
  }
}

/**
 * The snapshot a stream's last event holds. An event that is not one of ours (another
 * application's, in a stream named like ours), or whose data does not unzip, or unzips to more
 * than `maxStateBytes`, is `storage_corrupt`: the loader then replays, and the server's next
 * write puts a snapshot after it.
 */
async function snapshotOf(event: KurrentRecordedEvent, streamId: string, projection: string, maxStateBytes: number): Promise<StoredSnapshot> {
  const fields = event.metadata as Partial<Record<keyof SnapshotFields, unknown>> | undefined;
  const ours =
    event.type === SNAPSHOT_EVENT_TYPE &&
    !event.isJson &&
    event.data instanceof Uint8Array &&
    typeof fields === 'object' &&
    fields !== null &&
    fields.streamId === streamId &&
    fields.projection === projection &&
    typeof fields.version === 'number' &&
    typeof fields.revision === 'number' &&
    typeof fields.eventId === 'string' &&
    typeof fields.takenAt === 'string' &&
    fields.encoding === 'gzip';
  let state: string | undefined;
  let tooLarge = false;
  if (ours)
    state = await gunzipAsync(event.data as Uint8Array, { maxOutputLength: maxStateBytes }).then(
      (text) => text.toString('utf8'),
      (error: unknown) => {
        tooLarge = (error as { code?: unknown } | null)?.code === 'ERR_BUFFER_TOO_LARGE';
        return undefined;
      },
    );
  if (state === undefined) {
    const where = { streamId, kurrentStream: event.streamId, type: event.type };
    throw tooLarge
      ? new StorageCorruptError(
          `The snapshot in KurrentDB stream '${event.streamId}' unzips to more than ${maxStateBytes} bytes, so it is not read; the next snapshot written replaces it.`,
          { reason: 'snapshot_too_large', maxStateBytes, ...where },
        )
      : new StorageCorruptError(
          `The last event of KurrentDB stream '${event.streamId}' is not a snapshot of '${streamId}' (${projection}); the next snapshot written replaces it.`,
          { reason: 'foreign_snapshot_event', ...where },
        );
  }
  return {
    streamId,
    projection,
    version: fields?.version as number,
    revision: fields?.revision as number,
    eventId: fields?.eventId as string,
    state,
    takenAt: fields?.takenAt as string,
  };
}

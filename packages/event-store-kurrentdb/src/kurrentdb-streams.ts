import { StreamNotFoundError, type Direction, type KurrentDBClient, type ReadRevision, type RecordedEvent } from '@kurrent/kurrentdb-client';

/**
 * Where snapshot streams start, after the store's `streamPrefix`. The event store refuses stream
 * ids that start with it and its `readAll` leaves those streams out, so a snapshot stream is
 * never read as events, never listed as a session, and no stream of events can be named like one.
 * Its `-` makes `snapshot` the KurrentDB category of every snapshot stream (`$ce-snapshot`),
 * apart from `session`.
 */
export const SNAPSHOT_STREAM_MARKER = 'snapshot-';

/**
 * The stream that holds one projection's snapshots of one stream:
 * `<streamPrefix>snapshot-<projection>:<streamId>`. The projection is URI-encoded, so it never
 * contains the `:` that ends it, and no two (projection, stream) pairs share a name.
 */
export function snapshotStreamName(streamPrefix: string, projection: string, streamId: string): string {
  return `${streamPrefix}${SNAPSHOT_STREAM_MARKER}${encodeURIComponent(projection)}:${streamId}`;
}

/**
 * The server-side filter of the event store's `$all` reads, on stream names: the streams that
 * start with `streamPrefix`, minus system streams (`$...`, `$$...` metadata streams included) and
 * this store's snapshot streams.
 */
export function eventStreamsPattern(streamPrefix: string): string {
  return `^(?!\\$)${escapeRegExp(streamPrefix)}(?!${escapeRegExp(SNAPSHOT_STREAM_MARKER)})`;
}

/**
 * A stream's events (links not resolved); a missing stream is an empty list. Read from the
 * leader: a follower may lag, and an append, or a snapshot's check of its event, must see the
 * stream as it is now.
 */
export async function readStreamEvents(client: KurrentDBClient, stream: string, direction: Direction, fromRevision: ReadRevision, maxCount: number): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  try {
    for await (const resolved of client.readStream(stream, { direction, fromRevision, maxCount, requiresLeader: true })) {
      if (resolved.event) out.push(resolved.event);
    }
  } catch (error) {
    if (isStreamNotFound(error)) return [];
    throw error;
  }
  return out;
}

function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError || (error as { type?: unknown } | null)?.type === 'stream-not-found';
}

/** Escapes what both .NET's regex (the node's filter) and JavaScript's (the fake's) treat as syntax outside a character class. */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

import type { EventEnvelope, RecordedEvent } from '../events/event-envelope';
import { fingerprintOf, prepareAppend, resolveRetry, type PreparedEvent } from './append-preparation';
import {
  DEFAULT_EVENT_STORE_LIMITS,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type EventStoreLimits,
  type ReadAllOptions,
  type ReadStreamOptions,
} from './event-store';
import { deserializeEvent } from './serialized-event';
import { StreamRevisionConflictError, StorageUnavailableError } from './event-store-errors';
import { revisionMatches, type StreamState } from './expected-revision';

interface StoredRow extends PreparedEvent {
  readonly streamId: string;
  readonly revision: number;
  readonly position: number;
}

/**
 * An event store in process memory, for tests and throwaway runs. It stores serialized copies,
 * so callers can neither mutate recorded events nor store what a durable store would refuse.
 */
export class InMemoryEventStore implements EventStore {
  private readonly log: StoredRow[] = [];
  private readonly streams = new Map<string, StoredRow[]>();
  private readonly byId = new Map<string, StoredRow>();
  private readonly limits: EventStoreLimits;
  private closed = false;

  constructor(limits: Partial<EventStoreLimits> = {}) {
    this.limits = { ...DEFAULT_EVENT_STORE_LIMITS, ...limits };
  }

  async append(streamId: string, events: readonly EventEnvelope[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    const expected = options?.expectedRevision;
    const prepared = prepareAppend(streamId, events, expected, this.limits);
    const stream = this.streams.get(streamId) ?? [];

    const retry = resolveRetry(
      streamId,
      prepared,
      prepared.map((e) => {
        const row = this.byId.get(idKey(streamId, e.eventId));
        return row && { revision: row.revision, position: row.position, fingerprint: fingerprintOf(row.type, JSON.parse(row.data)) };
      }),
    );
    if (retry.kind === 'duplicate') return retry.result;

    const actual: StreamState = stream.length === 0 ? 'no_stream' : stream.length - 1;
    if (!revisionMatches(expected, actual)) throw new StreamRevisionConflictError(streamId, expected, actual);

    const rows = prepared.map((e, i) => ({ ...e, streamId, revision: stream.length + i, position: this.log.length + i + 1 }));
    for (const row of rows) {
      stream.push(row);
      this.log.push(row);
      this.byId.set(idKey(streamId, row.eventId), row);
    }
    this.streams.set(streamId, stream);
    const last = rows[rows.length - 1] as StoredRow;
    return { nextExpectedRevision: last.revision, position: last.position };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<readonly RecordedEvent[]> {
    this.assertOpen();
    const from = options.fromRevision ?? 0;
    const rows = (this.streams.get(streamId) ?? []).slice(from, options.maxCount === undefined ? undefined : from + options.maxCount);
    return rows.map(deserializeEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<readonly RecordedEvent[]> {
    this.assertOpen();
    // Positions are 1-based and dense here, so position p sits at index p - 1.
    const from = Math.max(0, (options.fromPosition ?? 1) - 1);
    return this.log.slice(from, options.maxCount === undefined ? undefined : from + options.maxCount).map(deserializeEvent);
  }

  async streamState(streamId: string): Promise<StreamState> {
    this.assertOpen();
    const length = this.streams.get(streamId)?.length ?? 0;
    return length === 0 ? 'no_stream' : length - 1;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageUnavailableError('The in-memory event store is closed.');
  }
}

function idKey(streamId: string, eventId: string): string {
  return `${streamId}\u0000${eventId}`;
}

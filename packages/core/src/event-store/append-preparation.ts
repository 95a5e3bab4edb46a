import type { EventEnvelope } from '../events/event-envelope';
import type { AppendResult, EventStoreLimits } from './event-store';
import { IdempotencyConflictError, InvalidEventError, PayloadTooLargeError } from './event-store-errors';
import { assertExpectedRevision, type ExpectedRevision } from './expected-revision';
import { canonicalJson, strictJsonStringify } from './strict-json';

/** An event checked and serialized, ready for an adapter to write. Shared by every adapter. */
export interface PreparedEvent {
  readonly eventId: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

const MAX_ID_LENGTH = 200;

/**
 * Everything an append checks before touching storage: the expected revision is explicit, ids
 * and types are present, ids are unique in the batch, payloads are plain JSON, and the batch
 * fits the size limit (EST-07, EST-10, EST-20). Throws a typed error; nothing is written.
 */
export function prepareAppend(streamId: string, events: readonly EventEnvelope[], expectedRevision: ExpectedRevision, limits: EventStoreLimits): PreparedEvent[] {
  assertExpectedRevision(expectedRevision);
  assertName('stream id', streamId);
  if (!Array.isArray(events) || events.length === 0) {
    throw new InvalidEventError(`Append to '${streamId}' has no events: pass at least one.`, { streamId });
  }
  const seen = new Set<string>();
  let bytes = 0;
  const prepared = events.map((event, index) => {
    const eventId = event?.metadata?.eventId;
    assertName(`metadata.eventId of event #${index}`, eventId);
    assertName(`type of event '${eventId}'`, event.type);
    if (seen.has(eventId)) {
      throw new InvalidEventError(`Event id '${eventId}' appears twice in one append: every event needs its own id.`, {
        streamId,
        eventId,
      });
    }
    seen.add(eventId);
    const data = strictJsonStringify(event.data, eventId, 'data');
    const metadata = strictJsonStringify(event.metadata, eventId, 'metadata');
    bytes += Buffer.byteLength(data) + Buffer.byteLength(metadata);
    return { eventId, type: event.type, data, metadata };
  });
  if (bytes > limits.maxAppendBytes) throw new PayloadTooLargeError(streamId, bytes, limits.maxAppendBytes);
  return prepared;
}

function assertName(what: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH) {
    throw new InvalidEventError(`The ${what} must be a non-empty string of at most ${MAX_ID_LENGTH} characters.`, {
      what,
    });
  }
}

/**
 * What a retry must match: type and data (metadata such as occurredAt may differ on retry).
 * Computed only for an id already stored, from the JSON both sides were written as: sorting every
 * event's keys up front was 1.6% of a loaded server's main thread, for retries that are rare.
 */
export function fingerprintOf(type: string, data: unknown): string {
  return `${type}\n${canonicalJson(data)}`;
}

/** A stored event found under one of the batch's ids. */
export interface StoredEventMatch {
  readonly revision: number;
  readonly position: number;
  readonly fingerprint: string;
}

export type RetryResolution =
  | { readonly kind: 'new' }
  /** Already appended: answer with the original append's result and write nothing. */
  | { readonly kind: 'duplicate'; readonly result: AppendResult };

/**
 * Decides whether a batch is new or a retry of an append that already happened. A retry is
 * acknowledged with the original result only when every id is there, in one contiguous run,
 * with the same content; any partial or different match is an `IdempotencyConflictError`.
 * This holds whatever the expected revision, so a retry after the stream moved on is still
 * not a duplicate (a KurrentDB weakness we do not copy).
 */
export function resolveRetry(streamId: string, prepared: readonly PreparedEvent[], found: readonly (StoredEventMatch | undefined)[]): RetryResolution {
  if (found.every((f) => f === undefined)) return { kind: 'new' };
  prepared.forEach((event, i) => {
    const match = found[i];
    if (match === undefined) {
      throw new IdempotencyConflictError(streamId, event.eventId, 'only in part: this batch mixes stored and new event ids');
    }
    if (match.fingerprint !== fingerprintOf(event.type, JSON.parse(event.data))) {
      throw new IdempotencyConflictError(streamId, event.eventId, 'with different type or data');
    }
    const first = found[0] as StoredEventMatch;
    if (match.revision !== first.revision + i) {
      throw new IdempotencyConflictError(streamId, event.eventId, 'in a different order or batch');
    }
  });
  const last = found[found.length - 1] as StoredEventMatch;
  return { kind: 'duplicate', result: { nextExpectedRevision: last.revision, position: last.position } };
}

import { OneClawError } from '../oneclaw-error';
import type { ExpectedRevision, StreamState } from './expected-revision';

/** The stream is not where the writer expected it: re-read, decide again, retry (or answer 409). */
export class StreamRevisionConflictError extends OneClawError {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: StreamState,
  ) {
    super('stream_revision_conflict', `Stream '${streamId}' changed concurrently: expected ${String(expected)}, found ${String(actual)}. Re-read the stream and try again.`, {
      streamId,
      expected,
      actual,
    });
  }
}

/** An event id already in the stream was re-sent with other content: never a silent duplicate. */
export class IdempotencyConflictError extends OneClawError {
  constructor(
    readonly streamId: string,
    readonly eventId: string,
    reason: string,
  ) {
    super('idempotency_conflict', `Event '${eventId}' was already appended to '${streamId}' ${reason}. Use a new event id for new content.`, { streamId, eventId });
  }
}

export class PayloadTooLargeError extends OneClawError {
  constructor(
    readonly streamId: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super('payload_too_large', `Append to '${streamId}' is ${bytes} bytes, over the ${limit}-byte limit. Split the content or store it outside the event.`, {
      streamId,
      bytes,
      limit,
    });
  }
}

export class EventNotSerializableError extends OneClawError {
  constructor(
    readonly eventId: string,
    readonly path: string,
    problem: string,
  ) {
    super(
      'event_not_serializable',
      `Event '${eventId}' cannot be stored: ${path} ${problem}. Event data must be plain JSON (objects, arrays, strings, finite numbers, booleans, null).`,
      { eventId, path },
    );
  }
}

export class InvalidEventError extends OneClawError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('invalid_event', message, details);
  }
}

/**
 * The stream was deleted in the store itself (a KurrentDB tombstone, an operator's act outside
 * OneClaw): it can never be written again, so unlike `storage_unavailable` a retry cannot help.
 */
export class StreamDeletedError extends OneClawError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('stream_deleted', message, details);
  }
}

/** The storage cannot be written or read (disk full, read-only file, I/O error). Nothing was written. */
export class StorageUnavailableError extends OneClawError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('storage_unavailable', message, details);
  }
}

/** The storage file is damaged or is not an event store; the store refuses to serve from it. */
export class StorageCorruptError extends OneClawError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('storage_corrupt', message, details);
  }
}

import {
  DeadlineExceededError,
  MaxAppendSizeExceededError,
  NotLeaderError,
  AccessDeniedError,
  StreamDeletedError as KurrentStreamDeletedError,
  UnavailableError,
  isCommandError,
} from '@kurrent/kurrentdb-client';
import { OneClawError, PayloadTooLargeError, StorageUnavailableError, StreamDeletedError } from '@oneclaw/core';

/** The KurrentDB connection string cannot be used. Same code as the server's other configuration errors. */
export class KurrentDbConfigError extends OneClawError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('invalid_config', message, details);
  }
}

/** gRPC status codes we meet as raw errors (grpc-js errors that the client passes on unconverted). */
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;

/** Removes `user:password@` from a connection string, so it can go into logs and error messages. */
export function redactConnectionString(connectionString: string): string {
  return connectionString.replace(/^([a-z+]+:\/\/)[^@/?]*@/i, '$1***@');
}

/** What `KurrentDBClient.connectionString` threw, as a configuration error that names the fix. */
export function connectionStringError(connectionString: string, error: unknown): KurrentDbConfigError {
  const reason = error instanceof Error ? error.message.replace(/\s+$/, '') : String(error);
  return new KurrentDbConfigError(
    `The KurrentDB connection string '${redactConnectionString(connectionString)}' (ONECLAW_KURRENTDB_CONNECTION_STRING) is not valid: ${reason} ` +
      `Use kurrentdb://host:2113?tls=false for one node, or kurrentdb+discover://node1:2113,node2:2113,node3:2113 for a cluster (TLS is on unless tls=false).`,
    { reason },
  );
}

/** Whether the error is a timeout: the write may or may not have happened. */
export function isDeadlineError(error: unknown): boolean {
  if (error instanceof DeadlineExceededError) return true;
  return grpcCodeOf(error) === GRPC_DEADLINE_EXCEEDED || typeOf(error) === 'deadline-exceeded';
}

export interface StoreErrorContext {
  readonly streamId?: string;
  /** Set for appends: the batch's size, for the size error, and the retry advice. */
  readonly appendBytes?: number;
  /**
   * Set for a snapshot's append: it is no event batch, so the advice to retry it with the same
   * event ids does not apply (a failed snapshot costs a replay; the next checkpoint writes another).
   */
  readonly snapshot?: boolean;
}

/**
 * Maps what the Kurrent client throws to the port's typed errors. The client is not uniform
 * (STACK.md pitfall 13): appends can reject with a raw grpc-js error (`code: 14`), reads through the
 * native bridge with `UnavailableError` (`type: 'unavailable'`), so both shapes are checked.
 * Our own typed errors pass through, and anything that is neither ours nor the client's (a
 * programming error) is rethrown as it is. `action` completes "Cannot ... KurrentDB".
 */
export function toStoreError(error: unknown, action: string, context: StoreErrorContext = {}): unknown {
  if (error instanceof OneClawError) return error;
  const { streamId, appendBytes, snapshot } = context;
  const details = { kurrentError: typeOf(error) ?? nameOf(error), grpcCode: grpcCodeOf(error), ...(streamId ? { streamId } : {}) };
  const cause = messageOf(error);
  // KurrentDB appends are atomic, so a failed one is never half-written; it may be wholly written
  // when the answer, not the request, was lost. Retrying with the same ids settles it either way.
  const isAppend = appendBytes !== undefined && !snapshot;
  const retry = isAppend ? 'An append is all or nothing; retry it with the same event ids, which is safe (idempotent).' : 'Retry later.';
  if (error instanceof MaxAppendSizeExceededError) {
    // The node's own limit is lower than our maxAppendBytes: the same error as our pre-check (EST-20).
    return new PayloadTooLargeError(streamId ?? '', appendBytes ?? 0, error.maxAppendSize);
  }
  if (isDeadlineError(error)) {
    const outcome = isAppend ? 'The append may or may not have been written: retry it with the same event ids, which is safe (idempotent).' : 'Retry later.';
    return new StorageUnavailableError(`Cannot ${action} KurrentDB: no answer before the deadline (${cause}). ${outcome}`, {
      ...details,
      reason: 'deadline_exceeded',
    });
  }
  const unavailable = error instanceof UnavailableError || grpcCodeOf(error) === GRPC_UNAVAILABLE || typeOf(error) === 'unavailable' || isDiscoveryFailure(error);
  if (unavailable) {
    return new StorageUnavailableError(`Cannot ${action} KurrentDB: the server is unavailable (${cause}). Check that the cluster is up and reachable. ${retry}`, {
      ...details,
      reason: 'unavailable',
    });
  }
  if (error instanceof AccessDeniedError) {
    return new StorageUnavailableError(`Cannot ${action} KurrentDB: access denied (${cause}). Check the user name and password in the connection string and the stream's ACL.`, {
      ...details,
      reason: 'access_denied',
    });
  }
  if (error instanceof KurrentStreamDeletedError) {
    return new StreamDeletedError(`Cannot ${action} KurrentDB: the stream was deleted (tombstoned) and can never be written again. Start a new session.`, {
      ...details,
      reason: 'stream_deleted',
    });
  }
  if (error instanceof NotLeaderError) {
    return new StorageUnavailableError(`Cannot ${action} KurrentDB: the node is not the leader (${cause}). The client reconnects to the leader. ${retry}`, {
      ...details,
      reason: 'not_leader',
    });
  }
  if ((error instanceof Error && isCommandError(error)) || typeof grpcCodeOf(error) === 'number') {
    return new StorageUnavailableError(`Cannot ${action} KurrentDB: ${cause}. ${retry}`, { ...details, reason: 'server_error' });
  }
  return error;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function typeOf(error: unknown): string | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : undefined;
}

function nameOf(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

function grpcCodeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** `kurrentdb+discover://` gives up with a plain Error when no node answers gossip. */
/**
 * KurrentDB refuses a `$all` read from an offset inside a record ("Trying to read from an invalid
 * position", INVALID_ARGUMENT); the native bridge hands it on as an UnknownError with that text.
 */
export function isInvalidPositionError(error: unknown): boolean {
  return /invalid position/i.test(messageOf(error));
}

function isDiscoveryFailure(error: unknown): boolean {
  return error instanceof Error && /^Failed to discover after \d+ attempts/.test(error.message);
}

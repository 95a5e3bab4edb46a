import { OneClawError, StorageUnavailableError } from '@oneclaw/core';

/** The PostgreSQL URL or the store's options cannot be used. Same code as the server's other configuration errors. */
export class PostgresConfigError extends OneClawError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('invalid_config', message, details);
  }
}

/**
 * Why PostgreSQL could not be used, in `details.reason` of the `StorageUnavailableError` (code
 * `storage_unavailable`): stable values a caller or an operator's alert can match on.
 */
export type PostgresFailureReason =
  /** Nothing listens at host:port (ECONNREFUSED), or the server is starting up / shutting down. */
  | 'connection_refused'
  /** The host name does not resolve. */
  | 'host_not_found'
  /** No answer in time (connect timeout, ETIMEDOUT). */
  | 'timeout'
  /** Wrong user name or password, or pg_hba.conf does not let this client in. */
  | 'auth_failed'
  /** The database named in the URL does not exist. */
  | 'database_missing'
  /** The user may not read or write the store's tables or create its schema. */
  | 'permission_denied'
  /** The server has no free connection slot (max_connections). */
  | 'too_many_connections'
  /** The connection broke mid-call (server killed, restarted, network cut). */
  | 'connection_lost'
  /** Another failure the server reported (disk full, read-only replica, ...). */
  | 'server_error';

/** Removes `user:password@` and a `password=` parameter from a URL, so it can go into logs and error messages. */
export function redactPostgresUrl(url: string): string {
  return url.replace(/^([a-z+]+:\/\/)[^@/?]*@/i, '$1***@').replace(/([?&]password=)[^&]*/gi, '$1***');
}

/** `host:port/database` of a URL, for messages: never the user or the password. */
export function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
    return `${host}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
  } catch {
    return redactPostgresUrl(url);
  }
}

/**
 * Checks the URL before the driver sees it: a driver error could quote it, password and all. The
 * message quotes nothing of it either: a malformed URL cannot be redacted reliably.
 */
export function checkPostgresUrl(url: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new PostgresConfigError(
      `The PostgreSQL URL (ONECLAW_POSTGRES_URL) is not a postgres:// URL. Use postgres://user:password@host:5432/database, and percent-encode special characters in the password.`,
    );
  }
}

/** SQLSTATE classes and codes we tell apart (PostgreSQL manual, appendix A). */
const SQLSTATE_REASONS: readonly [RegExp, PostgresFailureReason][] = [
  [/^28/, 'auth_failed'], // invalid_authorization_specification, invalid_password
  [/^3D000$/, 'database_missing'],
  [/^42501$/, 'permission_denied'],
  [/^53300$/, 'too_many_connections'],
  [/^57P0[123]$/, 'connection_refused'], // admin/crash shutdown, cannot_connect_now (starting up)
  [/^08/, 'connection_lost'], // connection_exception
];

const NODE_REASONS: Readonly<Record<string, PostgresFailureReason>> = {
  ECONNREFUSED: 'connection_refused',
  ENOENT: 'connection_refused', // a Unix socket that is not there
  ENOTFOUND: 'host_not_found',
  EAI_AGAIN: 'host_not_found',
  ETIMEDOUT: 'timeout',
  ECONNRESET: 'connection_lost',
  EPIPE: 'connection_lost',
};

const ADVICE: Readonly<Record<PostgresFailureReason, string>> = {
  connection_refused: 'Check that PostgreSQL is running and listening on that host and port (and not starting up or shutting down).',
  host_not_found: 'Check the host name in ONECLAW_POSTGRES_URL.',
  timeout: 'Check the network path to PostgreSQL and that the server is not overloaded.',
  auth_failed: "Check the user name and password in ONECLAW_POSTGRES_URL, and that the server's pg_hba.conf admits this client.",
  database_missing: 'Create the database (createdb, or CREATE DATABASE) or fix its name in ONECLAW_POSTGRES_URL.',
  permission_denied: "Grant the user the right to create the store's schema, or create the schema and tables as their owner.",
  too_many_connections: "Raise PostgreSQL's max_connections or lower ONECLAW_POSTGRES_POOL_SIZE on the replicas.",
  connection_lost: 'The connection broke (server restarted or network cut); the store reconnects on the next call.',
  server_error: 'See the PostgreSQL server log.',
};

/** The failure class of a driver error, or undefined when it is not one (a programming error). */
export function failureReasonOf(error: unknown): PostgresFailureReason | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    const byNode = NODE_REASONS[code];
    if (byNode) return byNode;
    // A server error: pg's DatabaseError carries a five-character SQLSTATE and a severity.
    if (/^[0-9A-Z]{5}$/.test(code) && typeof (error as { severity?: unknown }).severity === 'string') {
      return SQLSTATE_REASONS.find(([pattern]) => pattern.test(code))?.[1] ?? 'server_error';
    }
  }
  const message = error instanceof Error ? error.message : '';
  if (/timeout/i.test(message) && /connect/i.test(message)) return 'timeout';
  if (/Connection terminated|Client has encountered a connection error|Client was closed|connection is not queryable/i.test(message)) return 'connection_lost';
  return undefined;
}

export interface StoreErrorContext {
  /** `host:port/database`, never the credentials. */
  readonly target: string;
  /** Secrets to blank out of a driver message, should it quote one (the password, the URL). */
  readonly secrets: readonly string[];
  /** Set for appends: the retry advice differs. */
  readonly isAppend?: boolean;
}

/**
 * Maps what `pg` throws to the port's typed errors. Our own typed errors pass through; anything
 * that is neither ours nor the driver's (a programming error) is rethrown as it is. `action`
 * completes "Cannot ... PostgreSQL".
 */
export function toStoreError(error: unknown, action: string, context: StoreErrorContext): unknown {
  if (error instanceof OneClawError) return error;
  const reason = failureReasonOf(error);
  if (reason === undefined) return error;
  let cause = error instanceof Error ? error.message : String(error);
  for (const secret of [...context.secrets].sort((a, b) => b.length - a.length)) if (secret) cause = cause.split(secret).join('***');
  const code = (error as { code?: unknown }).code;
  // An append is one transaction: a failure before COMMIT wrote nothing. Only a connection lost
  // during COMMIT leaves the outcome unknown, and a retry with the same ids settles it (idempotent).
  const retry = context.isAppend ? ' Retrying the append with the same event ids is safe (idempotent).' : '';
  return new StorageUnavailableError(`Cannot ${action} PostgreSQL at ${context.target}: ${cause}. ${ADVICE[reason]}${retry}`, {
    reason,
    target: context.target,
    ...(typeof code === 'string' ? { pgCode: code } : {}),
  });
}

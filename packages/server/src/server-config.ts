import { randomBytes } from 'node:crypto';
import path from 'node:path';

export interface ServerConfig {
  /** Where the SQLite event store and, later, user tools and memory live. */
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  /** Largest JSON request body accepted. */
  readonly bodyLimitBytes: number;
  /** Largest single append to the event store. */
  readonly maxAppendBytes: number;
}

export class ConfigError extends Error {
  readonly code = 'invalid_config';
}

/**
 * Reads configuration from the environment. Defaults are safe for one machine: bind to
 * 127.0.0.1 only, store under ./data. Bad values stop the start with a message naming the variable.
 */
export function loadServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    dataDir: path.resolve(env.ONECLAW_DATA_DIR ?? 'data'),
    host: env.ONECLAW_HOST ?? '127.0.0.1',
    port: intFrom(env, 'PORT', 3000, 0, 65535),
    bodyLimitBytes: intFrom(env, 'ONECLAW_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    maxAppendBytes: intFrom(env, 'ONECLAW_MAX_APPEND_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
  };
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}=${raw} is not valid: use a whole number from ${min} to ${max}.`);
  }
  return value;
}

/** Command ids for requests that bring no Idempotency-Key. */
export function randomCommandId(): string {
  return randomBytes(12).toString('base64url');
}

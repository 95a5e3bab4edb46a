import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OneClawError } from '@oneclaw/core';
import { DEFAULT_SESSION_CACHE_BYTES } from './sessions/session-repository';

export type ProviderKind = 'openai' | 'anthropic' | 'gemini';

export interface ProviderConfig {
  readonly kind: ProviderKind;
  readonly model: string;
  readonly apiKey?: string;
  /** OpenAI-compatible servers (Ollama, vLLM, llama.cpp, OpenRouter) and test fakes. */
  readonly baseUrl?: string;
}

export type GoogleConfig =
  | { readonly kind: 'access_token'; readonly accessToken: string }
  | { readonly kind: 'refresh_token'; readonly clientId: string; readonly clientSecret: string; readonly refreshToken: string };

export interface ServerConfig {
  /** Where the SQLite event store, the API token, user tools (`tools/`, `lib/`) and tool files (`files/`) live. */
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  /** Largest JSON request body accepted. */
  readonly bodyLimitBytes: number;
  /** Largest single append to the event store. */
  readonly maxAppendBytes: number;
  /**
   * Events between two snapshots of a session (ONECLAW_SNAPSHOT_EVERY, default 500; 0 turns
   * snapshots off). Only stores with a snapshot store use it (SQLite; docs/event-store.md).
   */
  readonly snapshotEveryEvents?: number;
  /**
   * The context window (input tokens) of every model (ONECLAW_CONTEXT_WINDOW_TOKENS); unset, a
   * table of known models decides (turns/context-window.ts). Compaction starts at 85% of it.
   */
  readonly contextWindowTokens?: number;
  /**
   * This replica's name (ONECLAW_REPLICA_ID, default the host name), recorded on every turn it
   * runs. A replica runs one process at a time: its turns that are open at its next start were
   * cut off and are closed then. Give replicas that share a store distinct names.
   */
  readonly replicaId: string;
  /**
   * How long another replica's open turn may stay silent before it is taken as cut off
   * (ONECLAW_TURN_SILENCE_MINUTES, default 30): longer than a model request or a tool call may take.
   */
  readonly turnSilenceLimitMs: number;
  /** Fixed API token (ONECLAW_API_TOKEN); otherwise one is generated into the data directory. */
  readonly apiToken?: string;
  /** Use KurrentDB instead of the embedded SQLite store. */
  readonly kurrentDbConnectionString?: string;
  /**
   * Use PostgreSQL instead of the embedded SQLite store (ONECLAW_POSTGRES_URL,
   * `postgres://user:password@host:5432/database`), for several replicas on one database.
   */
  readonly postgres?: PostgresConfig;
  /** The default agent's model; undefined when no provider is configured (turns then fail with a clear error). */
  readonly provider?: ProviderConfig;
  /** Requests per minute per client on the API. */
  readonly rateLimitPerMinute: number;
  /** Honour X-Forwarded-For (only behind a proxy you run). */
  readonly trustProxy: boolean;
  /** Browser origins allowed to call the API cross-origin (the web UI is same-origin and needs none). */
  readonly corsOrigins: readonly string[];
  readonly logLevel: string;
  readonly google?: GoogleConfig;
  /** Proxy and extra CAs for tools' outgoing HTTPS (corporate TLS-inspecting proxies). */
  readonly outboundProxyUrl?: string;
  readonly extraCaCertificates: readonly string[];
  /** Values tools read as `_env.NAME` (from ONECLAW_ENV_NAME); never written to events or logs. */
  readonly toolEnv: Readonly<Record<string, string>>;
  /** Round cap of the default agent. */
  readonly maxRounds: number;
  /** Provider retries for 429 / 5xx before the turn fails. */
  readonly providerMaxRetries: number;
  /** The exec tool runs shell commands only when the operator turns it on (ONECLAW_EXEC_ENABLED). */
  readonly execEnabled: boolean;
  /** IANA time zone scheduled tasks are read in (ONECLAW_TIMEZONE); default the system zone. */
  readonly timeZone: string;
  /** Tools may reach loopback, private and link-local addresses (ONECLAW_TOOLS_ALLOW_PRIVATE_NETWORK; home users' LAN). */
  readonly toolsAllowPrivateNetwork: boolean;
  /**
   * Sandbox worker threads for JavaScript tools and js_eval (ONECLAW_JS_WORKERS, default 4): calls
   * that run at once. Each busy worker costs a CPU core and up to about 200 MB at its peak.
   */
  readonly jsWorkers: number;
  /** The Chromium/Chrome the browser tool drives (ONECLAW_BROWSER_PATH); default the first system one found. */
  readonly browserPath?: string;
  /** The built web UI served at `/` (ONECLAW_WEB_DIR); default the server's `static` folder, which `pnpm build` fills. */
  readonly webDir: string;
  /**
   * The content-addressed store of attached files (ONECLAW_ATTACHMENTS_DIR, default
   * `<data dir>/attachments`); with KurrentDB and several replicas, a folder they all share.
   */
  readonly attachmentsDir: string;
  /** Largest attachment accepted (ONECLAW_ATTACHMENT_MAX_BYTES, default 20 MB). */
  readonly attachmentMaxBytes: number;
  /**
   * Approximate bytes of session states kept in memory between requests (ONECLAW_SESSION_CACHE_BYTES,
   * default 32 MiB; 0 keeps none): beyond it the least recently used sessions are read from the
   * store again when next used (docs/memory.md).
   */
  readonly sessionCacheBytes: number;
}

export interface PostgresConfig {
  readonly url: string;
  /** Connections each replica keeps open at most (ONECLAW_POSTGRES_POOL_SIZE, default 10). */
  readonly poolSize: number;
  /** The schema holding the store's tables (ONECLAW_POSTGRES_SCHEMA, default `oneclaw`). */
  readonly schema: string;
}

export class ConfigError extends OneClawError {
  constructor(message: string) {
    super('invalid_config', message);
  }
}

const DEFAULT_MODELS: Readonly<Record<ProviderKind, string>> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-4-5',
  gemini: 'gemini-2.5-flash',
};

const KEY_VARS: Readonly<Record<ProviderKind, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
};

const BASE_URL_VARS: Readonly<Record<ProviderKind, string>> = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
  gemini: 'GEMINI_BASE_URL',
};

/**
 * Reads configuration from the environment. Defaults are safe for one machine: bind to
 * 127.0.0.1 only, store under ./data. Bad values stop the start with a message naming the variable.
 */
export function loadServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = path.resolve(env.ONECLAW_DATA_DIR ?? 'data');
  const caFile = text(env.ONECLAW_EXTRA_CA_CERTS);
  return {
    dataDir,
    host: env.ONECLAW_HOST ?? '127.0.0.1',
    port: intFrom(env, 'PORT', 3000, 0, 65535),
    bodyLimitBytes: intFrom(env, 'ONECLAW_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    maxAppendBytes: intFrom(env, 'ONECLAW_MAX_APPEND_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    snapshotEveryEvents: intFrom(env, 'ONECLAW_SNAPSHOT_EVERY', 500, 0, 1_000_000),
    ...optional('contextWindowTokens', env.ONECLAW_CONTEXT_WINDOW_TOKENS ? intFrom(env, 'ONECLAW_CONTEXT_WINDOW_TOKENS', 0, 1000, 100_000_000) : undefined),
    replicaId: text(env.ONECLAW_REPLICA_ID) ?? os.hostname(),
    turnSilenceLimitMs: intFrom(env, 'ONECLAW_TURN_SILENCE_MINUTES', 30, 1, 7 * 24 * 60) * 60_000,
    ...optional('apiToken', text(env.ONECLAW_API_TOKEN)),
    ...optional('kurrentDbConnectionString', text(env.ONECLAW_KURRENTDB_CONNECTION_STRING)),
    ...optional('postgres', postgresFrom(env)),
    ...optional('provider', providerFrom(env)),
    rateLimitPerMinute: intFrom(env, 'ONECLAW_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    trustProxy: flag(env, 'ONECLAW_TRUST_PROXY'),
    corsOrigins: (text(env.ONECLAW_CORS_ORIGINS) ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    logLevel: text(env.ONECLAW_LOG) ?? 'info',
    ...optional('google', googleFrom(env)),
    ...optional('outboundProxyUrl', text(env.ONECLAW_HTTPS_PROXY)),
    extraCaCertificates: caFile ? [readCa(caFile)] : [],
    toolEnv: toolEnvFrom(env),
    maxRounds: intFrom(env, 'ONECLAW_MAX_ROUNDS', 20, 1, 1000),
    providerMaxRetries: intFrom(env, 'ONECLAW_PROVIDER_MAX_RETRIES', 2, 0, 10),
    execEnabled: flag(env, 'ONECLAW_EXEC_ENABLED'),
    timeZone: timeZoneFrom(env),
    toolsAllowPrivateNetwork: flag(env, 'ONECLAW_TOOLS_ALLOW_PRIVATE_NETWORK'),
    jsWorkers: intFrom(env, 'ONECLAW_JS_WORKERS', 4, 1, 64),
    ...optional('browserPath', text(env.ONECLAW_BROWSER_PATH)),
    webDir: path.resolve(text(env.ONECLAW_WEB_DIR) ?? path.join(__dirname, '..', 'static')),
    attachmentsDir: path.resolve(text(env.ONECLAW_ATTACHMENTS_DIR) ?? path.join(dataDir, 'attachments')),
    attachmentMaxBytes: intFrom(env, 'ONECLAW_ATTACHMENT_MAX_BYTES', 20 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    sessionCacheBytes: intFrom(env, 'ONECLAW_SESSION_CACHE_BYTES', DEFAULT_SESSION_CACHE_BYTES, 0, 4 * 1024 * 1024 * 1024),
  };
}

/** ONECLAW_POSTGRES_*; refuses a second shared store, since the server writes to exactly one. */
function postgresFrom(env: NodeJS.ProcessEnv): PostgresConfig | undefined {
  const url = text(env.ONECLAW_POSTGRES_URL);
  if (url === undefined) return undefined;
  if (text(env.ONECLAW_KURRENTDB_CONNECTION_STRING) !== undefined) {
    throw new ConfigError(
      'Both ONECLAW_POSTGRES_URL and ONECLAW_KURRENTDB_CONNECTION_STRING are set, but the server keeps its events in one store: unset the one you do not use (docs/scale-out.md).',
    );
  }
  const schema = text(env.ONECLAW_POSTGRES_SCHEMA) ?? 'oneclaw';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError(`ONECLAW_POSTGRES_SCHEMA=${schema} is not valid: use lower-case letters, digits and '_', starting with a letter or '_'.`);
  }
  return { url, poolSize: intFrom(env, 'ONECLAW_POSTGRES_POOL_SIZE', 10, 1, 1000), schema };
}

/** The store the config names, for start-up lines and messages (never its connection string). */
export function storeName(config: Pick<ServerConfig, 'kurrentDbConnectionString' | 'postgres'>): 'PostgreSQL' | 'KurrentDB' | 'SQLite' {
  return config.postgres ? 'PostgreSQL' : config.kurrentDbConnectionString ? 'KurrentDB' : 'SQLite';
}

/** ONECLAW_TIMEZONE, checked against the zones this Node knows; the system zone when unset. */
function timeZoneFrom(env: NodeJS.ProcessEnv): string {
  const named = text(env.ONECLAW_TIMEZONE);
  if (named === undefined) return Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    // Canonical spelling ("europe/berlin" -> "Europe/Berlin"); an unknown zone throws RangeError.
    return new Intl.DateTimeFormat('en-US', { timeZone: named }).resolvedOptions().timeZone;
  } catch {
    throw new ConfigError(`ONECLAW_TIMEZONE=${named} is not valid: use an IANA time zone name such as Europe/Berlin, America/New_York or UTC.`);
  }
}

/** The provider named by ONECLAW_PROVIDER, or the first one with a key (Anthropic, OpenAI, Gemini). */
function providerFrom(env: NodeJS.ProcessEnv): ProviderConfig | undefined {
  const named = text(env.ONECLAW_PROVIDER);
  if (named !== undefined && !(named in DEFAULT_MODELS)) {
    throw new ConfigError(`ONECLAW_PROVIDER=${named} is not valid: use openai, anthropic or gemini.`);
  }
  const kind =
    (named as ProviderKind | undefined) ??
    (['anthropic', 'openai', 'gemini'] as const).find((k) => text(env[KEY_VARS[k]]) !== undefined) ??
    (text(env.OPENAI_BASE_URL) !== undefined ? 'openai' : undefined);
  if (kind === undefined) return undefined;
  return {
    kind,
    model: text(env.ONECLAW_MODEL) ?? DEFAULT_MODELS[kind],
    ...optional('apiKey', text(env[KEY_VARS[kind]])),
    ...optional('baseUrl', text(env[BASE_URL_VARS[kind]])),
  };
}

function googleFrom(env: NodeJS.ProcessEnv): GoogleConfig | undefined {
  const accessToken = text(env.ONECLAW_GOOGLE_ACCESS_TOKEN);
  if (accessToken) return { kind: 'access_token', accessToken };
  const clientId = text(env.ONECLAW_GOOGLE_CLIENT_ID);
  const clientSecret = text(env.ONECLAW_GOOGLE_CLIENT_SECRET);
  const refreshToken = text(env.ONECLAW_GOOGLE_REFRESH_TOKEN);
  if (!clientId && !clientSecret && !refreshToken) return undefined;
  if (!clientId || !clientSecret || !refreshToken) {
    throw new ConfigError('Google refresh-token sign-in needs all of ONECLAW_GOOGLE_CLIENT_ID, ONECLAW_GOOGLE_CLIENT_SECRET and ONECLAW_GOOGLE_REFRESH_TOKEN.');
  }
  return { kind: 'refresh_token', clientId, clientSecret, refreshToken };
}

const TOOL_ENV_PREFIX = 'ONECLAW_ENV_';

function toolEnvFrom(env: NodeJS.ProcessEnv): Record<string, string> {
  // No prototype: ONECLAW_ENV___proto__ is then a variable like any other, not a setter that drops it.
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(TOOL_ENV_PREFIX) && name.length > TOOL_ENV_PREFIX.length && value) out[name.slice(TOOL_ENV_PREFIX.length)] = value;
  }
  return out;
}

/** Every configured secret value: the redactor scrubs them from events, logs and answers. */
export function secretsOf(config: ServerConfig): string[] {
  const google = config.google;
  return [
    config.apiToken,
    config.provider?.apiKey,
    ...(google?.kind === 'access_token' ? [google.accessToken] : google ? [google.clientSecret, google.refreshToken] : []),
    ...Object.values(config.toolEnv),
    ...urlSecrets(config.postgres?.url),
  ].filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/** A connection URL and its password (raw and decoded): a driver message may quote either. */
export function urlSecrets(url: string | undefined): string[] {
  if (!url) return [];
  const out = [url];
  try {
    const password = new URL(url).password;
    if (password) out.push(password, decodeURIComponent(password));
  } catch {
    // Not a URL: the whole string is redacted.
  }
  return out;
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`ONECLAW_EXTRA_CA_CERTS=${file} cannot be read (${(error as Error).message}). Give a PEM file path.`);
  }
}

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = text(env[name])?.toLowerCase();
  if (raw === undefined || raw === '0' || raw === 'false' || raw === 'no') return false;
  if (raw === '1' || raw === 'true' || raw === 'yes') return true;
  throw new ConfigError(`${name}=${raw} is not valid: use true or false.`);
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

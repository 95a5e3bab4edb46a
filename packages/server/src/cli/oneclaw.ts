#!/usr/bin/env node
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildAuditTrail, sessionStreamId, type EventStore } from '@oneclaw/core';
import { collectAttachments } from '../attachments/attachment-gc';
import { formatAuditTrail } from '../audit/format-audit-trail';
import { loadServerConfig, secretsOf, urlSecrets, type ServerConfig } from '../server-config';

/** Where the CLI writes; process streams in real use, buffers in tests. */
export interface CliIo {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
}

/** Exit codes scripts can rely on (64 and 78 are the BSD sysexits for usage and config errors). */
export const EXIT = {
  ok: 0,
  failure: 1,
  noSuchSession: 2,
  usage: 64,
  config: 78,
} as const;

/** An upload younger than this may still be waiting for its message to be sent. */
const DEFAULT_MIN_AGE_HOURS = 24;

export const USAGE = `Usage: oneclaw <command>

Commands:
  serve                          start the server (configured from the environment)
  replay <session-id> [--json]   print a session's events and the tools the model saw
                                 at each request, with why each tool was there
  attachments gc [--dry-run] [--min-age-hours N]
                                 remove attached files no message refers to (uploads
                                 never sent), once older than N hours (default 24)
  help, --help                   show this text

The store is the SQLite file events.db in ONECLAW_DATA_DIR (default ./data), or
PostgreSQL when ONECLAW_POSTGRES_URL is set, or KurrentDB when
ONECLAW_KURRENTDB_CONNECTION_STRING is set.

Exit codes: 0 done, 1 failure, 2 no such session, 64 bad usage, 78 bad configuration.
`;

/**
 * Runs one CLI command and resolves to its exit code; never calls process.exit, so tests run it
 * in-process and the real entry point lets stdout drain before Node exits.
 */
export async function runCli(argv: readonly string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'help':
    case '--help':
    case '-h':
      io.stdout.write(USAGE);
      return EXIT.ok;
    case 'serve':
      if (rest.length > 0) return usageError(io, `'serve' takes no arguments (configure it with environment variables).`);
      // main.ts starts listening when loaded and reports its own start-up failures.
      require('../main');
      return EXIT.ok;
    case 'replay':
      return replayCommand(rest, io, env);
    case 'attachments':
      return attachmentsCommand(rest, io, env);
    case undefined:
      return usageError(io, 'a command is required.');
    default:
      return usageError(io, `unknown command '${command}'.`);
  }
}

/** A command's options and positionals, or its exit code once the usage is printed (asked for with --help, or wrong). */
function commandArgs<O extends Record<string, { readonly type: 'boolean' | 'string' }>>(args: readonly string[], options: O, io: CliIo) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    return usageError(io, (error as Error).message);
  }
  if ((parsed.values as { help?: boolean }).help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  return parsed as { readonly values: { readonly [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string }; readonly positionals: string[] };
}

async function replayCommand(args: readonly string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = commandArgs(args, { json: { type: 'boolean' } }, io);
  if (typeof parsed === 'number') return parsed;
  const [sessionId, ...extra] = parsed.positionals;
  if (sessionId === undefined || sessionId.trim() === '') return usageError(io, "'replay' needs a session id.");
  if (extra.length > 0) return usageError(io, `'replay' takes one session id, got ${parsed.positionals.length}.`);

  const opened = await openStore(io, env);
  if (typeof opened === 'number') return opened;
  const { store, config, where } = opened;
  try {
    const events = await store.readStream(sessionStreamId(sessionId));
    if (events.length === 0) {
      io.stderr.write(`no session ${sessionId} in ${where}\n`);
      return EXIT.noSuchSession;
    }
    const trail = buildAuditTrail(events);
    io.stdout.write(parsed.values.json ? `${JSON.stringify(trail, null, 2)}\n` : formatAuditTrail(trail));
    return EXIT.ok;
  } catch (error) {
    io.stderr.write(`oneclaw: cannot read session ${sessionId} from ${where}: ${safeMessage(error, config)}\n`);
    return EXIT.failure;
  } finally {
    // A failed close after a complete read changes nothing for the reader; the outcome stands.
    await store.close().catch(() => undefined);
  }
}

/** The configured store, or the exit code after saying why it cannot be opened. */
async function openStore(io: CliIo, env: NodeJS.ProcessEnv): Promise<{ readonly store: EventStore; readonly config: ServerConfig; readonly where: string } | number> {
  let config: ServerConfig;
  try {
    config = loadServerConfig(env);
  } catch (error) {
    // Config errors name the variable and what is wrong with it; they are written not to echo secrets.
    io.stderr.write(`oneclaw: ${(error as Error).message}\n`);
    return EXIT.config;
  }
  const where = storeDescription(config);
  // A command reads the server's store; a SQLite file that is not there is a wrong ONECLAW_DATA_DIR
  // (or a forgotten ONECLAW_POSTGRES_URL), and opening it would create an empty one.
  if (!config.postgres && !config.kurrentDbConnectionString && !existsSync(path.join(config.dataDir, 'events.db'))) {
    io.stderr.write(`oneclaw: ${where} does not exist: set ONECLAW_DATA_DIR (or ONECLAW_POSTGRES_URL, ONECLAW_KURRENTDB_CONNECTION_STRING) as the server has it.\n`);
    return EXIT.failure;
  }
  try {
    // Loaded here, not at the top: help and usage errors should not load the store clients (gRPC for KurrentDB, pg).
    const { openEventStore } = require('../persistence/open-event-store') as typeof import('../persistence/open-event-store');
    return { store: await openEventStore(config), config, where };
  } catch (error) {
    io.stderr.write(`oneclaw: cannot open ${where}: ${safeMessage(error, config)}\n`);
    return EXIT.failure;
  }
}

async function attachmentsCommand(args: readonly string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = commandArgs(args, { 'dry-run': { type: 'boolean' }, 'min-age-hours': { type: 'string' } }, io);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.join(' ') !== 'gc') return usageError(io, "'attachments' takes one subcommand: gc.");
  const hours = Number(parsed.values['min-age-hours'] ?? DEFAULT_MIN_AGE_HOURS);
  if (parsed.values['min-age-hours']?.trim() === '' || !Number.isFinite(hours) || hours < 0) {
    return usageError(io, `--min-age-hours must be a number of hours, 0 or more (got '${parsed.values['min-age-hours']}').`);
  }

  const opened = await openStore(io, env);
  if (typeof opened === 'number') return opened;
  const { store, config, where } = opened;
  const dryRun = parsed.values['dry-run'] === true;
  try {
    const report = await collectAttachments(store, config.attachmentsDir, { minAgeMs: hours * 3_600_000, now: Date.now(), dryRun });
    const bytes = report.unreferenced.reduce((sum, file) => sum + file.bytes, 0);
    const verb = dryRun ? 'would remove' : 'removed';
    for (const file of report.unreferenced) io.stdout.write(`${verb} ${file.hash} (${file.bytes} bytes)\n`);
    for (const name of report.leftovers) io.stdout.write(`${verb} ${name} (left by an interrupted upload)\n`);
    for (const { name, error } of report.failed) io.stderr.write(`oneclaw: could not remove ${name} (${error})\n`);
    io.stdout.write(
      `${config.attachmentsDir} (references from ${where}): ${report.referenced} referenced by messages (kept), ${report.young} not yet referenced but younger than ${hours} h (kept), ` +
        `${report.unreferenced.length} ${dryRun ? 'to remove' : 'removed'} (${bytes} bytes)${dryRun ? '; dry run, nothing removed' : ''}` +
        `${report.failed.length > 0 ? `; ${report.failed.length} could not be removed` : ''}.\n`,
    );
    return report.failed.length > 0 ? EXIT.failure : EXIT.ok;
  } catch (error) {
    io.stderr.write(`oneclaw: attachments gc failed (${where}, ${config.attachmentsDir}): ${safeMessage(error, config)}\n`);
    return EXIT.failure;
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** Names the store without its connection string, which may hold a password. */
function storeDescription(config: ServerConfig): string {
  if (config.postgres) return 'the PostgreSQL store (ONECLAW_POSTGRES_URL)';
  return config.kurrentDbConnectionString ? 'the KurrentDB store (ONECLAW_KURRENTDB_CONNECTION_STRING)' : `the SQLite store ${path.join(config.dataDir, 'events.db')}`;
}

/** A driver's error message with every configured secret and the connection string blanked out. */
function safeMessage(error: unknown, config: ServerConfig): string {
  const e = error as { code?: unknown; message?: unknown };
  let message = typeof e?.message === 'string' ? e.message : String(error);
  // secretsOf covers the PostgreSQL URL; the KurrentDB string is added here, as before.
  const secrets = [...secretsOf(config), ...urlSecrets(config.kurrentDbConnectionString)].filter((s) => s.length > 0);
  for (const secret of secrets.sort((a, b) => b.length - a.length)) message = message.split(secret).join('***');
  return typeof e?.code === 'string' ? `[${e.code}] ${message}` : message;
}

function usageError(io: CliIo, problem: string): number {
  io.stderr.write(`oneclaw: ${problem}\n\n${USAGE}`);
  return EXIT.usage;
}

if (require.main === module) {
  void runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then((code) => {
    process.exitCode = code;
  });
}

import type { LoggerService, LogLevel } from '@nestjs/common';
import type { Level, Logger } from 'pino';

/** Nest's levels onto pino's; Nest's `verbose` is the chattiest, like pino's `trace`. */
const PINO_LEVEL: Readonly<Record<LogLevel, Level>> = {
  verbose: 'trace',
  debug: 'debug',
  log: 'info',
  warn: 'warn',
  error: 'error',
  fatal: 'fatal',
};

/** From chattiest to quietest, to turn Nest's list of enabled levels into pino's one threshold. */
const NEST_ORDER: readonly LogLevel[] = ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'];

/** Same test as Nest's ConsoleLogger: a string that looks like `Error: …\n    at file:1:2`. */
const STACK_FORMAT = /^(.)+\n\s+at .+:\d+:\d+/;

/**
 * Nest's LoggerService over the redacting pino logger, so framework messages (start-up, route
 * mapping, ExceptionsHandler stacks) are JSON lines scrubbed like ours instead of raw console text.
 *
 * Nest's `Logger` appends its context (class name) as the last argument, and for `error` passes
 * `(message, stack, context)`; this adapter keeps them as `context` and `stack` fields. At pino
 * level `silent` every call is a no-op, which is what `logger: false` gave before.
 *
 * Wiring (create-app.ts / main.ts):
 *   NestFactory.create(AppModule.forRoot(options), { logger: new NestPinoLogger(logger), ... })
 * or, to keep the messages Nest logs before the app exists, `{ bufferLogs: true }` and then
 * `app.useLogger(new NestPinoLogger(logger))`.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('log', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('verbose', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes the enabled levels; pino has one threshold, so the chattiest enabled one wins. */
  setLogLevels(levels: LogLevel[]): void {
    const chattiest = NEST_ORDER.find((level) => levels.includes(level));
    this.logger.level = chattiest === undefined ? 'silent' : PINO_LEVEL[chattiest];
  }

  private write(level: LogLevel, message: unknown, params: unknown[]): void {
    const pinoLevel = PINO_LEVEL[level];
    if (!this.logger.isLevelEnabled(pinoLevel)) return;
    const { context, stack, extra } = splitParams(level, params);
    const fields: Record<string, unknown> = {};
    if (context !== undefined) fields.context = context;
    if (stack !== undefined) fields.stack = stack;
    if (extra.length > 0) fields.extra = extra;
    if (message instanceof Error) {
      fields.err = message;
      this.logger[pinoLevel](fields, message.message);
    } else if (typeof message === 'object' && message !== null) {
      // Nested, not merged: a logged object must not overwrite pino's own keys (level, time, msg).
      fields.data = message;
      this.logger[pinoLevel](fields);
    } else {
      this.logger[pinoLevel](fields, String(message));
    }
  }
}

/** Nest's argument conventions, as its ConsoleLogger reads them. */
function splitParams(level: LogLevel, params: readonly unknown[]): { context?: string; stack?: string; extra: unknown[] } {
  const rest = [...params];
  if (level === 'error' && rest.length === 1 && typeof rest[0] === 'string' && STACK_FORMAT.test(rest[0])) {
    return { stack: rest[0], extra: [] };
  }
  const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
  let stack: string | undefined;
  if (level === 'error' && rest.length > 0) {
    const last = rest[rest.length - 1];
    if (typeof last === 'string' || last === undefined) {
      rest.pop();
      stack = last;
    }
  }
  return { ...(context !== undefined ? { context } : {}), ...(stack !== undefined ? { stack } : {}), extra: rest };
}

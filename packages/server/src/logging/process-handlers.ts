import type { Logger } from 'pino';

export interface ProcessHandlerOptions {
  /** What to listen on; tests pass their own emitter so Jest's own handlers are left alone. */
  readonly target?: NodeJS.EventEmitter;
  /** Called with 1 after an uncaught exception is logged; default `process.exit`. */
  readonly exit?: (code: number) => void;
}

/**
 * Routes crashes through the redacting logger (SEC-06), so an error message or stack holding a
 * secret is scrubbed like any other line; Node's default handler would print it raw to stderr.
 *
 * - `unhandledRejection`: logged at error and the server keeps running. A stray rejected promise
 *   (a tool's, a provider's) must not take every session down; the log line is the bug report.
 * - `uncaughtException`: logged at fatal, then the process exits with 1. After a synchronous throw
 *   nobody caught, state may be half-updated, and adding a listener would otherwise stop Node from
 *   exiting. The default logger writes synchronously, so the line is out before the exit.
 *
 * Returns an uninstall function. Wiring (main.ts), first thing after the logger exists:
 *   const uninstall = installProcessHandlers(logger);
 * and replace `console.error` in main's catch with `logger.fatal({ err }, 'failed to start')`.
 */
export function installProcessHandlers(logger: Logger, options: ProcessHandlerOptions = {}): () => void {
  const target = options.target ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));

  const onRejection = (reason: unknown): void => {
    // Non-Error reasons (strings, objects) go in `reason` so the by-value scrubbing still sees them.
    const fields = reason instanceof Error ? { err: reason } : { reason };
    logger.error(fields, 'Unhandled promise rejection');
  };
  const onException = (error: unknown): void => {
    try {
      const fields = error instanceof Error ? { err: error } : { reason: error };
      logger.fatal(fields, 'Uncaught exception; exiting');
      logger.flush();
    } finally {
      exit(1);
    }
  };

  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}

import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { REDACTED, type SecretRedactor } from '../security/secret-redactor';

export type { Logger } from 'pino';

export interface CreateLoggerOptions {
  /** pino level: fatal, error, warn, info, debug, trace or silent (ONECLAW_LOG). */
  readonly level: string;
  /** Known secret values; add to it later (e.g. a generated API token) and the logger sees them. */
  readonly redactor: SecretRedactor;
  /** Where lines go; default stdout, written synchronously so a crash log is not lost on exit. */
  readonly destination?: DestinationStream;
}

/**
 * Key-path redaction (SEC-02). `*.x` only reaches one level down, so the top-level forms are listed
 * too. Deeper copies of these keys are caught by the by-value walk in `formatters.log`.
 */
export const REDACT_PATHS: readonly string[] = [
  '_env.*',
  '*._env.*',
  'headers.authorization',
  'req.headers.authorization',
  'apiKey',
  '*.apiKey',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
  'password',
  '*.password',
];

/**
 * The one logger of the server: JSON lines, secrets removed three ways, because each way alone
 * has gaps (B5.4):
 *  - `redact` paths hide values under known keys, however they were produced;
 *  - `hooks.logMethod` scrubs message strings and Error arguments (pino takes the message of an
 *    Error argument before any formatter runs), `formatters.log` walks logged objects (sensitive
 *    keys, `_env`, secrets inside strings), and the `err` serializer scrubs serialized errors
 *    (message, stack, cause);
 *  - `hooks.streamWrite` scrubs the final line, catching what the others cannot see: values
 *    interpolated by `%o`, class instances serialized by toJSON, an `err.message` used as `msg`,
 *    and child-logger bindings (pino applies no formatter to those; only `redact` paths).
 *
 * Wiring (main.ts): build the redactor from `secretsOf(config)`, add the API token from
 * `loadOrCreateApiToken` to it, then `const logger = createLogger({ level: config.logLevel, redactor })`.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const { redactor } = options;
  const loggerOptions: LoggerOptions = {
    level: options.level,
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    serializers: {
      err: (error: unknown) => {
        const serialized: unknown = pino.stdSerializers.err(error as Error);
        // The serialized error has pino's own prototype, which redactValue would pass through
        // untouched; spread it into a plain object (dropping the non-enumerable `raw`) first.
        return redactor.redactValue(typeof serialized === 'object' && serialized !== null ? { ...serialized } : serialized);
      },
    },
    formatters: {
      log: (object) => redactor.redactValue(object),
    },
    hooks: {
      logMethod(args, method) {
        const scrubbed = args.map((arg: unknown) => (typeof arg === 'string' || arg instanceof Error ? redactor.redactValue(arg) : arg)) as Parameters<typeof method>;
        method.apply(this, scrubbed);
      },
      streamWrite: (line) => redactor.redactText(line),
    },
  };
  return pino(loggerOptions, options.destination ?? pino.destination({ dest: 1, sync: true }));
}

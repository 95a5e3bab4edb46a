import { OneClawError } from '@oneclaw/core';
import { FsError, type ConfinedFs } from '@oneclaw/js-tools';
import { builtinTool, MAX_ANSWER_CHARS, truncateText, type Tool } from '@oneclaw/tool-registry';
import { runShellCommand, type ShellOutcome } from './shell-command';

export const EXEC_TOOL_TIMEOUT_MS = 125_000;
export const EXEC_DEFAULT_TIMEOUT_SECONDS = 30;
export const EXEC_MAX_TIMEOUT_SECONDS = 120;
export const EXEC_DEFAULT_MAX_LENGTH = 50_000;
const FALLBACK_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface ExecToolOptions {
  /** ONECLAW_EXEC_ENABLED: off by default, because a shell reaches everything the server's user can. */
  readonly enabled: boolean;
  /** The files root: the default working directory, and HOME of the command. */
  readonly files: ConfinedFs;
  /** The command's TZ: the `timezone` setting, else ONECLAW_TIMEZONE, else the system zone. */
  readonly timeZone: () => string;
}

interface ExecParams {
  readonly command: string;
  readonly timeout_seconds?: number;
  readonly working_directory?: string;
  readonly max_length?: number;
}

/** exec (CATALOGUE.md section 8, system): a shell command with a timeout, in the files folder. */
export function createExecTool(options: ExecToolOptions): Tool {
  return builtinTool<ExecParams>(
    {
      name: 'exec',
      description:
        'Run a shell command (sh -c) in the files folder; returns exit code, stdout and stderr.' +
        (options.enabled ? '' : ' Disabled on this server: every call fails with exec_disabled.'),
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: "e.g. 'ls -la'" },
          timeout_seconds: { type: 'number', description: 'default 30, 1-120' },
          working_directory: {
            type: 'string',
            description: 'relative to the files folder',
          },
          max_length: { type: 'integer', minimum: 1, description: `output chars kept, max ${MAX_ANSWER_CHARS}` },
        },
        required: ['command'],
      },
      timeoutMs: EXEC_TOOL_TIMEOUT_MS,
    },
    async (params, context) => {
      if (!options.enabled) {
        throw new OneClawError(
          'exec_disabled',
          'Shell commands are disabled on this server. The operator can enable them by setting ONECLAW_EXEC_ENABLED=true and restarting; until then, do without exec.',
        );
      }
      if (params.command.trim() === '') {
        throw new OneClawError('missing_parameter', "The command is empty. Give a shell command to run, such as 'ls -la'.");
      }
      const timeoutSeconds = clamp(params.timeout_seconds ?? EXEC_DEFAULT_TIMEOUT_SECONDS, 1, EXEC_MAX_TIMEOUT_SECONDS);
      const maxLength = Math.min(params.max_length ?? EXEC_DEFAULT_MAX_LENGTH, MAX_ANSWER_CHARS);
      const cwd = workingDirectory(options.files, params.working_directory);
      const home = options.files.directory();
      let outcome: ShellOutcome;
      try {
        outcome = await runShellCommand({
          command: params.command,
          cwd,
          env: commandEnvironment(home, options.timeZone()),
          timeoutMs: timeoutSeconds * 1000,
          signal: context.signal,
          // Enough for maxLength characters of any UTF-8 text.
          maxCaptureBytes: maxLength * 4,
        });
      } catch (error) {
        throw new OneClawError(
          'exec_failed',
          `The shell could not be started (${(error as NodeJS.ErrnoException).code ?? 'error'}). Ask the operator to check that 'sh' is installed.`,
        );
      }
      // Redacted before formatExecOutput cuts it (ToolContext.redact).
      const redact = context.redact ?? ((text: string) => text);
      return formatExecOutput({ ...outcome, stdout: redact(outcome.stdout), stderr: redact(outcome.stderr) }, timeoutSeconds, maxLength);
    },
  );
}

/**
 * The origin's format: `[Exit Code: N]`, then stdout, then a `[stderr]` section, then the notes
 * (output cut, timeout, cancel); `(no output)` when the command printed nothing. Over `maxLength`,
 * the output is cut, never the exit code or the notes, which say what happened.
 */
export function formatExecOutput(outcome: ShellOutcome, timeoutSeconds: number, maxLength: number): string {
  const header = `[Exit Code: ${outcome.exitCode}]`;
  const output: string[] = [];
  if (outcome.stdout !== '') output.push(withoutFinalNewline(outcome.stdout));
  if (outcome.stderr !== '') output.push('[stderr]', withoutFinalNewline(outcome.stderr));
  if (output.length === 0) output.push('(no output)');
  const notes: string[] = [];
  if (outcome.outputCut) notes.push('[output cut: the command printed more than is kept]');
  if (outcome.timedOut) notes.push(`[timed out after ${timeoutSeconds} s: the command and the processes it started were killed]`);
  if (outcome.cancelled) notes.push('[cancelled: the command and the processes it started were killed]');
  const frame = [header, ...notes].join('\n').length + 1 + notes.length;
  const body = truncateText(output.join('\n'), Math.max(0, maxLength - frame));
  return [header, body, ...notes].join('\n');
}

/**
 * Never the server's environment, which holds API keys: a command could print it. PATH is kept
 * (it names no secret, and tools installed under other prefixes stay reachable).
 */
export function commandEnvironment(home: string, timeZone: string): Record<string, string> {
  return {
    PATH: process.env.PATH || FALLBACK_PATH,
    HOME: home,
    LANG: process.env.LANG || 'C.UTF-8',
    TZ: timeZone,
  };
}

function workingDirectory(files: ConfinedFs, input: string | undefined): string {
  if (input === undefined || input.trim() === '') return files.directory();
  try {
    return files.directory(input);
  } catch (error) {
    if (error instanceof FsError) throw new FsError(error.code, `working_directory: ${error.message}`, error.details);
    throw error;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function withoutFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

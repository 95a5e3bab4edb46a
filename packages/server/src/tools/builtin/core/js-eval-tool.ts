import { OneClawError } from '@oneclaw/core';
import { compileScript, ScriptSyntaxError, type JsLogLine, type JsRunner, type ScriptCode } from '@oneclaw/js-tools';
import { builtinTool, toolError, toolSuccess, type Tool } from '@oneclaw/tool-registry';

export const JS_EVAL_TOOL_TIMEOUT_MS = 125_000;
export const JS_EVAL_DEFAULT_TIMEOUT_SECONDS = 30;
export const JS_EVAL_MAX_TIMEOUT_SECONDS = 120;
const FILE_NAME = 'js_eval';
/** Console lines are part of the answer (the model asked for them), up to this many characters. */
const MAX_CONSOLE_CHARS = 10_000;

interface JsEvalParams {
  readonly code: string;
  readonly timeout_seconds?: number;
}

/**
 * js_eval (CATALOGUE.md section 8, system): code run in the QuickJS sandbox of JS tools, with the
 * same bridges and limits. As in the origin app, the code is wrapped in `execute()` and run with
 * a direct `eval`: if it defines `main()` the awaited result of `main()` is the answer, otherwise
 * the value of its last expression (awaited when it is a promise).
 */
export function createJsEvalTool(runner: JsRunner): Tool {
  const tool = builtinTool<JsEvalParams>(
    {
      name: 'js_eval',
      description:
        'Run JavaScript in the JS-tool sandbox (fetch, fs, console, lib, _env; no require). Returns the last value, or what async function main() returns, and console output.',
      parameters: {
        type: 'object',
        properties: {
          code: { type: 'string', description: 'JavaScript source' },
          timeout_seconds: {
            type: 'number',
            minimum: 1,
            maximum: JS_EVAL_MAX_TIMEOUT_SECONDS,
            description: `default ${JS_EVAL_DEFAULT_TIMEOUT_SECONDS}`,
          },
        },
        required: ['code'],
      },
      timeoutMs: JS_EVAL_TOOL_TIMEOUT_MS,
    },
    async (params, context) => {
      if (params.code.trim() === '') throw new OneClawError('missing_parameter', 'The code is empty. Give JavaScript to run, such as `1 + 1`.');
      checkSyntax(params.code);
      // The schema bounds timeout_seconds (the engine answers validation_error beyond it).
      const timeoutSeconds = params.timeout_seconds ?? JS_EVAL_DEFAULT_TIMEOUT_SECONDS;
      const outcome = await runner.run({
        script: evalScript(params.code),
        functionName: 'execute',
        params: {},
        env: context.env,
        timeoutMs: timeoutSeconds * 1000,
        sessionId: context.sessionId,
        signal: context.signal,
      });
      const console = consoleSection(outcome.logs);
      if (outcome.status === 'error') return toolError(outcome.errorType, outcome.message + console, outcome.logs);
      return toolSuccess(outcome.result + console, outcome.logs);
    },
  );
  // The sandbox runner starts the timeout when a worker takes the code, not while it waits for one.
  return { ...tool, enforcesOwnTimeout: true };
}

/**
 * The sandbox's syntax error names no line of the user's code (it is inside an eval); acorn, which
 * parses tool files on the host, does.
 */
function checkSyntax(code: string): void {
  try {
    compileScript(FILE_NAME, code, { slicing: false });
  } catch (error) {
    if (!(error instanceof ScriptSyntaxError)) throw error;
    const hint = parsesInAsyncFunction(code) ? ' await is only allowed inside a function: put the code in async function main() { ... } and return the result.' : '';
    throw new OneClawError('execution_error', `SyntaxError at line ${error.line}, column ${error.column}: ${error.reason}.${hint}`);
  }
}

/** True when the code fails only because it awaits at the top level. */
function parsesInAsyncFunction(code: string): boolean {
  if (!/\bawait\b/.test(code)) return false;
  try {
    compileScript(FILE_NAME, `(async function () {\n${code}\n})`, { slicing: false });
    return true;
  } catch {
    return false;
  }
}

/**
 * The wrapper the runner calls. The user's code runs in a direct, sloppy-mode eval inside
 * `execute`, so its `var` and function declarations (main included) land in `execute`'s scope,
 * and `_env` is in reach. `main` may also be a `const`/`let`, which the eval keeps to itself:
 * a trailing `var` statement hands it out through `__oneclaw`. A `var` statement has no
 * completion value, so the eval still yields the value of the user's last expression.
 */
export function evalScript(code: string): ScriptCode {
  const source = [
    'async function execute(params) {',
    '  var _env = params._env;',
    '  var __oneclaw = { main: undefined };',
    `  var __oneclaw_value = eval(${JSON.stringify(`${code}\n;var __oneclaw_main = (__oneclaw.main = typeof main === 'function' ? main : undefined);`)});`,
    "  var __oneclaw_result = typeof __oneclaw.main === 'function' ? await __oneclaw.main() : await __oneclaw_value;",
    // The runner answers '' for undefined; say it, as a console would.
    "  return __oneclaw_result === undefined ? 'undefined' : __oneclaw_result;",
    '}',
  ].join('\n');
  return { fileName: FILE_NAME, sliceFor: () => source };
}

function consoleSection(logs: readonly JsLogLine[]): string {
  if (logs.length === 0) return '';
  let text = logs.map((l) => (l.level === 'log' || l.level === 'info' ? l.message : `[${l.level}] ${l.message}`)).join('\n');
  if (text.length > MAX_CONSOLE_CHARS) text = `${text.slice(0, MAX_CONSOLE_CHARS)}\n[console output cut at ${MAX_CONSOLE_CHARS} characters]`;
  return `\n\n[console]\n${text}`;
}

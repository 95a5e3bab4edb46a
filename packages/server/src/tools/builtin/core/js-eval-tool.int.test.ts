import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBridgeHost, InProcessJsRunner, type ClosableBridgeHost } from '@oneclaw/js-tools';
import { ToolExecutionEngine, ToolRegistry, type ToolResult } from '@oneclaw/tool-registry';
import { createJsEvalTool } from './js-eval-tool';

let dir: string;
let host: ClosableBridgeHost;
let runner: InProcessJsRunner;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-js-eval-'));
  host = createBridgeHost({ filesRoot: path.join(dir, 'files') });
  runner = new InProcessJsRunner(host);
});
afterAll(async () => {
  await runner.close();
  await host.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const context = (env: Record<string, string> = {}) => ({ signal: new AbortController().signal, sessionId: 's', callId: 'c', env });
const run = (params: Record<string, unknown>, env?: Record<string, string>): Promise<ToolResult> => createJsEvalTool(runner).execute(params, context(env));

function text(result: ToolResult): string {
  if (result.status !== 'success') throw new Error(`expected success, got ${result.errorType}: ${result.message}`);
  return result.result;
}

describe('js_eval through the real QuickJS runner (issue 6, CATALOGUE section 8)', () => {
  it('answers the value of the last expression', async () => {
    expect(text(await run({ code: 'const a = 20;\nconst b = 22;\na + b' }))).toBe('42');
    expect(text(await run({ code: "'hello ' + 'world'" }))).toBe('hello world');
    expect(text(await run({ code: 'let x = 1; x = x + 1;' }))).toBe('2');
  });

  it('returns objects and arrays as JSON', async () => {
    expect(JSON.parse(text(await run({ code: '({ name: "Ana", tags: ["a", "b"], nested: { n: 1 } })' })))).toEqual({ name: 'Ana', tags: ['a', 'b'], nested: { n: 1 } });
    expect(text(await run({ code: '[1, 2, 3].map((n) => n * 2)' }))).toBe('[2,4,6]');
  });

  it('says "undefined" when the code produces no value', async () => {
    expect(text(await run({ code: 'var unused = 1;' }))).toBe('undefined');
  });

  it('awaits main() when the code defines it (async function, or a const arrow function), instead of the last expression', async () => {
    const code = 'async function main() {\n  const v = await Promise.resolve(20);\n  return { v: v + 1 };\n}\n"not this"';
    expect(text(await run({ code }))).toBe('{"v":21}');
    expect(text(await run({ code: 'const main = async () => (await Promise.resolve(6)) * 7;' }))).toBe('42');
    expect(text(await run({ code: "'use strict';\nfunction main() { return 'strict main'; }" }))).toBe('strict main');
  });

  it('awaits a promise left as the last expression', async () => {
    expect(text(await run({ code: 'Promise.resolve(5).then((n) => n + 1)' }))).toBe('6');
  });

  it('captures console output and returns it after the value, also in the log', async () => {
    const result = await run({ code: 'console.log("first", { a: 1 });\nconsole.warn("careful");\n"done"' });
    expect(text(result)).toBe('done\n\n[console]\nfirst {"a":1}\n[warn] careful');
    expect(result.log).toEqual([
      { level: 'log', message: 'first {"a":1}' },
      { level: 'warn', message: 'careful' },
    ]);
  });

  it('gives the code _env like JS tools, and redacts its values from the answer', async () => {
    expect(text(await run({ code: 'Object.keys(_env).join(",") + " " + _env.API_KEY.length' }, { API_KEY: 'sk-secret-value' }))).toBe('API_KEY 15');
    expect(text(await run({ code: '_env.API_KEY' }, { API_KEY: 'sk-secret-value' }))).toBe('[redacted]');
  });

  it('uses the same bridges as JS tools (fs confined to the files folder)', async () => {
    expect(text(await run({ code: 'fs.writeFile("eval/out.txt", "from js_eval"); fs.readFile("eval/out.txt")' }))).toBe('from js_eval');
    expect(fs.readFileSync(path.join(dir, 'files', 'eval', 'out.txt'), 'utf8')).toBe('from js_eval');
  });

  it('a syntax error is execution_error naming the line and column, before anything runs', async () => {
    const result = await run({ code: 'const ok = 1;\nconsole.log("ran");\nconst broken = ;' });
    expect(result).toMatchObject({ status: 'error', errorType: 'execution_error' });
    expect(result.status === 'error' && result.message).toMatch(/^SyntaxError at line 3, column \d+: /);
    expect(result.log).toBeUndefined();
  });

  it('top-level await is a syntax error whose message says to use async main()', async () => {
    const result = await run({ code: 'const r = await Promise.resolve(1);\nr' });
    expect(result).toMatchObject({ status: 'error', errorType: 'execution_error' });
    expect(result.status === 'error' && result.message).toContain('async function main()');
  });

  it('a runtime error is execution_error with the error, and the console output before it', async () => {
    const result = await run({ code: 'console.log("before");\nnull.field' });
    expect(result).toMatchObject({ status: 'error', errorType: 'execution_error' });
    expect(result.status === 'error' && result.message).toMatch(/^TypeError: .*\n\n\[console\]\nbefore$/);
    const thrown = await run({ code: 'async function main() { throw new Error("custom failure"); }' });
    expect(thrown).toMatchObject({ status: 'error', errorType: 'execution_error', message: 'custom failure' });
  });

  it('stops an infinite loop at timeout_seconds (timeout)', async () => {
    const result = await run({ code: 'while (true) {}', timeout_seconds: 1 });
    expect(result).toMatchObject({ status: 'error', errorType: 'timeout' });
    expect(result.status === 'error' && result.message).toContain('1000 ms');
  });

  it('stops an allocation bomb at the memory limit (sandbox_limit)', async () => {
    const result = await run({ code: 'const a = [];\nwhile (true) a.push([a.length, a.length + 1]);', timeout_seconds: 30 });
    expect(result).toMatchObject({ status: 'error', errorType: 'sandbox_limit' });
    expect(result.status === 'error' && result.message).toContain('ran out of memory');
  });

  it('stops runaway recursion at the stack limit (sandbox_limit)', async () => {
    const result = await run({ code: 'function f(n) { return f(n + 1) + 1; }\nf(0)' });
    expect(result).toMatchObject({ status: 'error', errorType: 'sandbox_limit' });
    expect(result.status === 'error' && result.message).toContain('stack');
  });

  it('has no host access: require and process are undefined, and globalThis holds no host object', async () => {
    expect(text(await run({ code: '[typeof require, typeof process, typeof Buffer, typeof setTimeout, typeof module].join(",")' }))).toBe(
      'undefined,undefined,undefined,undefined,undefined',
    );
    const result = await run({ code: 'require("fs")' });
    expect(result).toMatchObject({ status: 'error', errorType: 'execution_error' });
    expect(result.status === 'error' && result.message).toContain('require');
  });

  it('keeps nothing between calls', async () => {
    await run({ code: 'globalThis.leftover = 1; var alsoLeft = 2;' });
    expect(text(await run({ code: 'typeof leftover + "," + typeof alsoLeft' }))).toBe('undefined,undefined');
  });

  it('refuses empty code (missing_parameter); bad input is a validation_error from the engine', async () => {
    expect(await run({ code: '  \n ' })).toMatchObject({ status: 'error', errorType: 'missing_parameter' });
    const registry = new ToolRegistry();
    registry.register(createJsEvalTool(runner), { kind: 'built-in' });
    const outcomes = await new ToolExecutionEngine(registry).executeAll(
      [
        { callId: 'a', toolName: 'js_eval', arguments: {} },
        { callId: 'b', toolName: 'js_eval', arguments: { code: 1 } },
        { callId: 'c', toolName: 'js_eval', arguments: { code: '1', timeout_seconds: 'soon' } },
      ],
      { sessionId: 's', activeToolNames: ['js_eval'] },
    );
    expect(outcomes.map((o) => o.result.status === 'error' && o.result.errorType)).toEqual(['validation_error', 'validation_error', 'validation_error']);
    expect(registry.get('js_eval')?.definition.timeoutMs).toBe(125_000);
  });

  it('timeout_seconds above 120 (or below 1) is a validation_error that names the bound, not a silent clamp', async () => {
    const registry = new ToolRegistry();
    registry.register(createJsEvalTool(runner), { kind: 'built-in' });
    const outcomes = await new ToolExecutionEngine(registry).executeAll(
      [
        { callId: 'a', toolName: 'js_eval', arguments: { code: '1', timeout_seconds: 121 } },
        { callId: 'b', toolName: 'js_eval', arguments: { code: '1', timeout_seconds: 0 } },
        { callId: 'c', toolName: 'js_eval', arguments: { code: '1', timeout_seconds: 120 } },
      ],
      { sessionId: 's', activeToolNames: ['js_eval'] },
    );
    expect(outcomes.map((o) => o.result.status === 'error' && o.result.errorType)).toEqual(['validation_error', 'validation_error', false]);
    expect(outcomes[0]?.result.status === 'error' && outcomes[0].result.message).toMatch(/120/);
  });

  it('tells the engine it keeps its own time, so waiting for a sandbox worker does not count, and passes the session on', async () => {
    const seen: { sessionId?: string }[] = [];
    const recording = {
      run: async (call: { sessionId?: string }) => (seen.push(call), { status: 'success' as const, result: 'ok', logs: [], durationMs: 0 }),
      close: async () => {},
    };
    const tool = createJsEvalTool(recording);
    expect(tool.enforcesOwnTimeout).toBe(true);
    expect(text(await tool.execute({ code: '1' }, context()))).toBe('ok');
    expect(seen[0]?.sessionId).toBe('s');
  });
});

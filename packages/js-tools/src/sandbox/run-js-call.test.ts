import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { FakeBridgeHost } from '../testing/fake-bridge-host';
import { BridgeError, type HostFetchResponse } from './bridge-host';
import { compileScript } from './compiled-script';
import type { JsCall, JsCallOutcome } from './js-call';
import { loadQuickJs, type SandboxModule } from './quickjs-module';
import { runJsCall } from './run-js-call';

let release: SandboxModule;
beforeAll(async () => {
  release = await loadQuickJs();
});

const call = (source: string, functionName = 'execute', extra: Partial<JsCall> = {}): JsCall => ({
  script: compileScript('tool.js', source),
  functionName,
  params: {},
  env: {},
  timeoutMs: 5_000,
  // The main thread's stack is shared with Node: stay well below it (see InProcessJsRunner).
  limits: { stackBytes: 256 * 1024, ...extra.limits },
  ...extra,
});

async function run(source: string, functionName = 'execute', extra: Partial<JsCall> = {}, host = new FakeBridgeHost()): Promise<JsCallOutcome> {
  return runJsCall(release, call(source, functionName, extra), host);
}

function expectError(outcome: JsCallOutcome, errorType: string, message?: RegExp | string, limit?: string) {
  expect(outcome.status).toBe('error');
  if (outcome.status !== 'error') return;
  expect(outcome.errorType).toBe(errorType);
  if (message !== undefined) expect(outcome.message).toMatch(message);
  if (limit !== undefined) expect(outcome.limit).toBe(limit);
}

function resultOf(outcome: JsCallOutcome): string {
  if (outcome.status !== 'success') throw new Error(`expected success, got ${outcome.errorType}: ${outcome.message}`);
  return outcome.result;
}

describe('calling tool functions (J1, J3)', () => {
  it('J1 a single-tool file calls execute(params); a string result is returned as it is', async () => {
    expect(resultOf(await run('function execute(params) { return "hello " + params.who; }', 'execute', { params: { who: 'Ada' } }))).toBe('hello Ada');
  });

  it('J3 a named function gets the same params as execute, with _env; _-prefixed helpers are shared', async () => {
    const source = `
      function _greet(name) { return 'hi ' + name; }
      function listFiles(params) { return { greeting: _greet(params.who), token: params._env.API_BASE }; }
      async function readFile(params) { return _greet(params.file); }`;
    const env = { API_BASE: 'https://api.example.com' };
    expect(JSON.parse(resultOf(await run(source, 'listFiles', { params: { who: 'Bo' }, env })))).toEqual({ greeting: 'hi Bo', token: '[redacted]' });
    expect(resultOf(await run(source, 'readFile', { params: { file: 'a.txt' } }))).toBe('hi a.txt');
  });

  it('J3 a non-string result is JSON-serialized by the guest; undefined is an empty result', async () => {
    expect(resultOf(await run('function execute() { return { n: 1, list: [true, null], when: new Date(0) }; }'))).toBe(
      '{"n":1,"list":[true,null],"when":"1970-01-01T00:00:00.000Z"}',
    );
    expect(resultOf(await run('function execute() { return 42; }'))).toBe('42');
    expect(resultOf(await run('function execute() { }'))).toBe('');
  });

  it("J5 a function named in the manifest but missing is execution_error: Function 'x' is not defined", async () => {
    expectError(await run('function other() { return 1; }', 'listFiles'), 'execution_error', "Function 'listFiles' is not defined");
    expectError(await run('var listFiles = 3;', 'listFiles'), 'execution_error', "Function 'listFiles' is not defined");
  });

  it('J5 a missing function named like a built-in global or a bridge is not defined; the built-in never runs', async () => {
    const source = 'function other() { return 1; }';
    for (const name of ['eval', 'toString', 'parseInt', 'hasOwnProperty', 'fetch', 'console', 'JSON']) {
      expectError(await run(source, name, { params: { code: '1' } }), 'execution_error', `Function '${name}' is not defined`);
    }
  });

  it('a file may still declare a tool function under a global name, or make one at run time', async () => {
    expect(resultOf(await run('function parseInt(p) { return "mine " + p.n; }', 'parseInt', { params: { n: 1 } }))).toBe('mine 1');
    expect(resultOf(await run('var made = (function () { return function () { return "made"; }; })();', 'made'))).toBe('made');
  });

  it('functions bound with const or let at the top level are found too', async () => {
    expect(resultOf(await run('const execute = (p) => "const " + p.n;', 'execute', { params: { n: 1 } }))).toBe('const 1');
    expect(resultOf(await run('let helper = 2; let listFiles = async function () { return helper; };', 'listFiles'))).toBe('2');
    expectError(await run('const listFiles = 3;', 'listFiles'), 'execution_error', "Function 'listFiles' is not defined");
  });

  it('a function defined as a top-level variable is found (the slice falls back to the whole file)', async () => {
    expect(resultOf(await run('var _base = 2; var twice = function (p) { return p.n * _base; };', 'twice', { params: { n: 21 } }))).toBe('42');
  });

  it('a slice keeps every top-level statement and the functions they reach, so helpers used through a table still work', async () => {
    const source = `
      var handlers = { a: _handleA };
      function _handleA() { return _deep(); }
      function _deep() { return 'deep'; }
      function _unused() { return 'never'; }
      function execute(p) { return handlers[p.which](); }`;
    const script = compileScript('t.js', source);
    const slice = script.sliceFor('execute');
    expect(slice).not.toContain('_unused');
    expect(slice.split('\n').length).toBe(source.split('\n').length);
    expect(resultOf(await run(source, 'execute', { params: { which: 'a' } }))).toBe('deep');
  });

  it('SBX-20 a thrown Error, a thrown value and a rejected promise are execution_error with the guest message, never a host exception', async () => {
    expectError(await run('function execute() { throw new Error("Drive API error (404): not found"); }'), 'execution_error', /^Drive API error \(404\): not found$/);
    expectError(await run('function execute() { throw 42; }'), 'execution_error', /^42$/);
    expectError(await run('async function execute() { await null; throw new TypeError("bad input"); }'), 'execution_error', /^TypeError: bad input$/);
    expectError(await run('function execute() { return Promise.reject("nope"); }'), 'execution_error', /nope/);
  });

  it('SBX-20 throw null, throw undefined and a promise rejected with nothing are execution_error naming the value, not out of memory', async () => {
    expectError(await run('function execute() { throw null; }'), 'execution_error', /^The tool threw null\.$/);
    expectError(await run('function execute() { throw undefined; }'), 'execution_error', /^The tool threw undefined\.$/);
    expectError(await run('function execute() { return Promise.reject(); }'), 'execution_error', /^The tool threw undefined\.$/);
    expectError(await run('async function execute() { await null; throw null; }'), 'execution_error', /^The tool threw null\.$/);
  });

  it("SBX-20 throw null right after a call that ran out of memory on the same module is still the tool's error", async () => {
    const bomb = await run('function execute() { var a = []; for (;;) a.push({ a: 1, b: [1, 2, 3] }); }', 'execute', { limits: { memoryBytes: 8 * 1024 * 1024 } });
    expectError(bomb, 'sandbox_limit', /out of memory/, 'memory');
    expectError(await run('function execute() { throw null; }'), 'execution_error', /^The tool threw null\.$/);
  });

  it('SBX-20 code that does not parse is refused when the file is compiled, naming file, line and column', () => {
    expect(() => compileScript('broken.js', 'function execute() {\n  return 1 +;\n}\n')).toThrow(/^Syntax error in 'broken.js' at line 2, column 13: Unexpected token$/);
  });

  it('a promise that waits on nothing ends the call instead of hanging it', async () => {
    expectError(await run('function execute() { return new Promise(function () {}); }'), 'execution_error', /can never settle/);
  });
});

describe('sandbox limits (J6, SBX)', () => {
  it('SBX-01 an infinite loop stops at the CPU budget: sandbox_limit (cpu)', async () => {
    const outcome = await run('function execute() { while (true) {} }', 'execute', { limits: { cpuMs: 100 } });
    expectError(outcome, 'sandbox_limit', /CPU/, 'cpu');
  });

  it('SBX-01 a loop that catches every exception still cannot swallow the interrupt', async () => {
    const outcome = await run('function execute() { for (;;) { try { while (true) {} } catch (e) {} } }', 'execute', { limits: { cpuMs: 100 } });
    expectError(outcome, 'sandbox_limit', undefined, 'cpu');
  });

  it('SBX-02 an infinite loop inside a promise job stops too, and the host keeps running', async () => {
    const outcome = await run('function execute() { return new Promise(async function (r) { await null; while (1) {} }); }', 'execute', { limits: { cpuMs: 100 } });
    expectError(outcome, 'sandbox_limit', undefined, 'cpu');
    expect(resultOf(await run('function execute() { return "still alive"; }'))).toBe('still alive');
  });

  it('a busy loop stops when the cancel flag is raised (the worker path; its parent raises it from another thread)', async () => {
    let polls = 0;
    const outcome = await runJsCall(release, call('function execute() { while (true) {} }'), new FakeBridgeHost(), { isCancelled: () => ++polls > 3 });
    expectError(outcome, 'cancelled');
    expect(polls).toBeGreaterThan(3);
  });

  it('the wall-clock timeout ends a loop when no CPU budget is set: timeout', async () => {
    expectError(await run('function execute() { while (true) {} }', 'execute', { timeoutMs: 150 }), 'timeout', /within 150 ms/);
  });

  it('SBX-04 an allocation bomb hits the memory limit: sandbox_limit (memory), and the next call works', async () => {
    const outcome = await run('function execute() { var a = []; for (;;) a.push({ a: 1, b: [1, 2, 3] }); }', 'execute', { limits: { memoryBytes: 8 * 1024 * 1024 } });
    expectError(outcome, 'sandbox_limit', /out of memory \(limit 8 MiB\)/, 'memory');
    expect(resultOf(await run('function execute() { return [1,2,3].length; }'))).toBe('3');
  });

  it('SBX-04 memory that runs out in a promise job is still out of memory when the rejection is read after a bridge call, not "threw null"', async () => {
    const source = `async function execute() {
      const filling = (async () => { await null; var a = []; for (;;) a.push({ a: 1, b: [1, 2, 3] }); })();
      filling.catch(() => {});
      await fetch("https://example.com/");
      await filling;
    }`;
    expectError(await run(source, 'execute', { limits: { memoryBytes: 8 * 1024 * 1024 } }), 'sandbox_limit', /out of memory \(limit 8 MiB\)/, 'memory');
  });

  it('SBX-05 unbounded recursion hits the stack limit: sandbox_limit (stack)', async () => {
    expectError(await run('function execute() { var f = function () { return f() + 1; }; return f(); }'), 'sandbox_limit', /stack/, 'stack');
    expect(resultOf(await run('function execute() { function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1); } return depth(500); }'))).toBe('500');
  });

  it('SBX-15 a result longer than the output limit is refused before it is copied out', async () => {
    expectError(
      await run('function execute() { return "x".repeat(5000); }', 'execute', { limits: { outputChars: 1000 } }),
      'sandbox_limit',
      /5000 characters; the limit is 1000/,
      'output',
    );
    expectError(await run('function execute() { return { big: "y".repeat(5000) }; }', 'execute', { limits: { outputChars: 1000 } }), 'sandbox_limit', undefined, 'output');
  });

  it('a call cancelled through its signal while it waits on a bridge ends as cancelled; one cancelled before it starts never runs', async () => {
    const controller = new AbortController();
    const hanging = new FakeBridgeHost(() => new Promise<HostFetchResponse>(() => {}));
    setTimeout(() => controller.abort(), 50);
    expectError(await run('async function execute() { await fetch("https://slow.example.com/"); }', 'execute', { signal: controller.signal }, hanging), 'cancelled');
    const host = new FakeBridgeHost();
    expectError(await run('function execute() { fs.writeFile("x", "1"); }', 'execute', { signal: AbortSignal.abort() }, host), 'cancelled');
    expect(host.calls).toEqual([]);
  });
});

describe('isolation and ambient authority (SBX)', () => {
  it('SBX-06 the guest has no process, require, module loader or host globals: only the bridges', async () => {
    const probe = await run(`async function execute() {
      var dynamicImport;
      try { await import('fs'); dynamicImport = 'loaded'; } catch (e) { dynamicImport = 'refused'; }
      return {
        types: [typeof process, typeof require, typeof module, typeof globalThis.Deno, typeof Buffer, typeof setTimeout, typeof XMLHttpRequest],
        dynamicImport: dynamicImport,
        globals: Object.getOwnPropertyNames(globalThis).sort()
      };
    }`);
    const result = JSON.parse(resultOf(probe)) as { types: string[]; dynamicImport: string; globals: string[] };
    expect(result.types).toEqual(Array(7).fill('undefined'));
    expect(result.dynamicImport).toBe('refused');
    const bridges = ['_time', 'console', 'fetch', 'fs', 'google', 'lib'];
    for (const name of bridges) expect(result.globals).toContain(name);
    // Everything else is a standard ECMAScript intrinsic (or the tool's own function).
    const standard = new Set(Object.getOwnPropertyNames(globalThis));
    const unexpected = result.globals.filter((g) => !bridges.includes(g) && g !== 'execute' && !standard.has(g) && !['InternalError', 'Float16Array', 'Iterator'].includes(g));
    expect(unexpected).toEqual([]);
    expect(result.globals).not.toContain('host');
  });

  it('SBX-14 no state leaks between calls or tools: a global set by one call is gone in the next', async () => {
    expect(resultOf(await run('function execute() { globalThis.leak = 1; Object.prototype.polluted = true; return "set"; }'))).toBe('set');
    expect(resultOf(await run('function execute() { return typeof leak + " " + typeof ({}).polluted; }'))).toBe('undefined undefined');
  });

  it('SBX-08 bridges return copies: a guest that mutates what a bridge returned changes nothing on the host', async () => {
    const host = new FakeBridgeHost();
    host.files.set('a.txt', 'abc');
    const outcome = await run(
      'function execute() { var l = fs.list("."); l[0].name = "evil"; l.__proto__.polluted = 1; Object.prototype.hacked = 1; return fs.list(".")[0].name; }',
      'execute',
      {},
      host,
    );
    expect(resultOf(outcome)).toBe('a.txt');
    expect([...host.files.keys()]).toEqual(['a.txt']);
    expect(({} as Record<string, unknown>).hacked).toBeUndefined();
  });

  it('SBX-09 a host error reaches the guest as name, code and message only, with secrets redacted and no host stack', async () => {
    const host = new FakeBridgeHost(async () => {
      const error = new BridgeError('network_error', 'connect failed for token sk-live-123456 at /srv/secret/path');
      error.stack = 'Error: at /srv/host/internal.js:1:1';
      throw error;
    });
    const outcome = await run(
      `async function execute() {
        try { await fetch('https://api.example.com/'); } catch (e) {
          return { name: e.name, code: e.code, message: e.message, stack: String(e.stack || ''), keys: Object.keys(e).sort() };
        }
      }`,
      'execute',
      { env: { OPENAI_API_KEY: 'sk-live-123456' } },
      host,
    );
    const seen = JSON.parse(resultOf(outcome)) as Record<string, unknown>;
    expect(seen.name).toBe('Error');
    expect(seen.code).toBe('network_error');
    expect(seen.message).toBe('connect failed for token [redacted] at /srv/secret/path');
    expect(String(seen.stack)).not.toContain('/srv/host');
  });

  it('SBX-16 the guest sees only the env keys the deployment configured, and their values never come out', async () => {
    const env = { GITHUB_TOKEN: 'ghp_secretvalue' };
    const outcome = await run(
      'function execute(p) { console.log("token is", p._env.GITHUB_TOKEN); return { keys: Object.keys(p._env), echoed: p._env.GITHUB_TOKEN, other: typeof p._env.OPENAI_API_KEY }; }',
      'execute',
      { env },
    );
    expect(JSON.parse(resultOf(outcome))).toEqual({ keys: ['GITHUB_TOKEN'], echoed: '[redacted]', other: 'undefined' });
    expect(outcome.logs).toEqual([{ level: 'log', message: 'token is [redacted]' }]);
    const failing = await run('function execute(p) { throw new Error("bad token " + p._env.GITHUB_TOKEN); }', 'execute', { env });
    expectError(failing, 'execution_error', 'bad token [redacted]');
  });

  it('a console line cut at maxLogLineChars never keeps the start of a secret that spans the cut', async () => {
    const secret = 'sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const env = { SERVICE_KEY: secret, SHORT: 'pw12' };
    const log = (line: string) => run(`function execute(p) { console.log(${line}); return 1; }`, 'execute', { env });
    // The reported case: 3980 + 44 characters, cut at the default 4000.
    const spanning = await log('"x".repeat(3980) + p._env.SERVICE_KEY');
    expect(spanning.logs).toEqual([{ level: 'log', message: `${'x'.repeat(3980)}… (4024 characters, cut at 4000)` }]);
    // Whole before the cut: redacted, as in a line that is not cut; a short secret too.
    const before = await log('"x".repeat(3900) + p._env.SERVICE_KEY + p._env.SHORT + "y".repeat(200)');
    expect(before.logs[0]?.message).toBe(`${'x'.repeat(3900)}[redacted][redacted]${'y'.repeat(52)}… (4148 characters, cut at 4000)`);
    expect(JSON.stringify([spanning, before])).not.toContain('sk-live');
  });

  it('a secret with a line break or a quote is redacted in an object result and a console line of an object (their JSON escapes it)', async () => {
    const env = { PEM: '-----BEGIN KEY-----\nMIIBOgIBAAJBAK\n-----END KEY-----', QUOTED: 'pa"ss\\word' };
    const outcome = await run('function execute(p) { console.log({ k: p._env.PEM }); return { key: p._env.PEM, q: p._env.QUOTED }; }', 'execute', { env });
    expect(resultOf(outcome)).toBe('{"key":"[redacted]","q":"[redacted]"}');
    expect(outcome.logs).toEqual([{ level: 'log', message: '{"k":"[redacted]"}' }]);
  });

  it('what a tool throws is copied out with the size check of a result: cut inside the guest at outputChars, redacted before the cut', async () => {
    const env = { KEY: 'sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ' };
    const limits = { outputChars: 1000 };
    const thrown = (value: string) => run(`function execute(p) { throw ${value}; }`, 'execute', { env, limits });
    expectError(await thrown('"s".repeat(990) + p._env.KEY'), 'execution_error', /^s{990}… \(1024 characters, cut at 1000\)$/);
    expectError(await thrown('new RangeError("m".repeat(5000))'), 'execution_error', /^RangeError: m{1000}… \(5000 characters, cut at 1000\)$/);
    expectError(await thrown('{ detail: "d".repeat(5000) }'), 'execution_error', /^\{"detail":"d{989}… \(5013 characters, cut at 1000\)$/);
    // Beyond the memory limit even as JSON: the call ran out of memory, and nothing was copied out.
    const big = await run('function execute() { var a = []; for (var i = 0; i < 60; i++) a.push("z".repeat(1e5) + i); throw a; }');
    expectError(big, 'sandbox_limit', /out of memory/, 'memory');
  });

  it('env keys named like Object.prototype members (__proto__, constructor) reach the guest as own keys', async () => {
    const env: Record<string, string> = Object.create(null) as Record<string, string>;
    env['__proto__'] = 'proto-secret-value';
    env['constructor'] = 'constructor-secret-value';
    const outcome = await run(
      'function execute(p) { return { keys: Object.keys(p._env), own: Object.prototype.hasOwnProperty.call(p._env, "__proto__"), type: typeof p._env["__proto__"] }; }',
      'execute',
      { env },
    );
    expect(JSON.parse(resultOf(outcome))).toEqual({ keys: ['__proto__', 'constructor'], own: true, type: 'string' });
  });

  it('SBX-11 there is no timer bridge, so a timer flood cannot start', async () => {
    expect(resultOf(await run('function execute() { return [typeof setTimeout, typeof setInterval, typeof queueMicrotask].join(","); }'))).toBe('undefined,undefined,undefined');
  });

  it('SBX-18 the asyncify variant is never used (quickjs-emscripten#258)', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (
          /\.ts$/.test(name) &&
          !name.endsWith('.test.ts') &&
          /newAsyncifiedFunction|newAsyncContext|newAsyncRuntime|release-asyncify|debug-asyncify/.test(readFileSync(file, 'utf8'))
        )
          offenders.push(file);
      }
    };
    walk(path.join(__dirname, '..'));
    expect(offenders).toEqual([]);
  });
});

describe('bridges inside the sandbox (J4)', () => {
  it('console output is captured per call with its level, never printed', async () => {
    const outcome = await run('function execute() { console.log("a", 1, {b: 2}); console.warn("careful"); console.error(new Error("bad")); return "ok"; }');
    expect(outcome.logs).toEqual([
      { level: 'log', message: 'a 1 {"b":2}' },
      { level: 'warn', message: 'careful' },
      { level: 'error', message: 'Error: bad' },
    ]);
  });

  it('console output is capped per call', async () => {
    const outcome = await run('function execute() { for (var i = 0; i < 500; i++) console.log("line " + i); }', 'execute', { limits: { maxLogLines: 10 } });
    expect(outcome.logs).toHaveLength(11);
    expect(outcome.logs[10]?.message).toMatch(/dropped after 10 lines/);
  });

  it('fetch: sequential awaits, Promise.all, status, headers and body as text, json or base64', async () => {
    const host = new FakeBridgeHost(async (request): Promise<HostFetchResponse> => ({
      status: request.url.endsWith('/missing') ? 404 : 200,
      statusText: 'OK',
      url: request.url,
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify({ method: request.method, url: request.url, body: request.body ?? null, auth: request.headers.Authorization ?? null })),
    }));
    const outcome = await run(
      `async function execute() {
        var a = await fetch('https://api.example.com/a');
        var b = await fetch('https://api.example.com/b', { method: 'patch', headers: { Authorization: 'Bearer t' }, body: { x: 1 } });
        var both = await Promise.all([fetch('https://api.example.com/c'), fetch('https://api.example.com/missing')]);
        return {
          a: (await a.json()).method, ok: a.ok, type: a.headers.get('Content-Type'),
          b: await b.json(),
          statuses: both.map(function (r) { return r.status + ':' + r.ok; }),
          b64: (await a.base64()).length > 0
        };
      }`,
      'execute',
      {},
      host,
    );
    expect(JSON.parse(resultOf(outcome))).toEqual({
      a: 'GET',
      ok: true,
      type: 'application/json',
      b: { method: 'PATCH', url: 'https://api.example.com/b', body: '{"x":1}', auth: 'Bearer t' },
      statuses: ['200:true', '404:false'],
      b64: true,
    });
  });

  it('fetch with a method outside GET, POST, PUT, PATCH, DELETE, HEAD is refused in the guest', async () => {
    expectError(await run('async function execute() { await fetch("https://a.example.com", { method: "TRACE" }); }'), 'execution_error', /Method 'TRACE' is not supported/);
  });

  it('SBX-10 a bridge that hangs is abandoned at the call timeout, and its host work is aborted', async () => {
    let aborted = false;
    const host = new FakeBridgeHost(
      (_request, signal) =>
        new Promise<HostFetchResponse>((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        }),
    );
    const outcome = await run('async function execute() { await fetch("https://slow.example.com/"); return "never"; }', 'execute', { timeoutMs: 200 }, host);
    expectError(outcome, 'timeout', /within 200 ms/);
    expect(aborted).toBe(true);
  });

  it('SBX-13 a bridge that settles after its call ended touches nothing freed; later calls work', async () => {
    let finishLate: (() => void) | undefined;
    const host = new FakeBridgeHost(
      () =>
        new Promise<HostFetchResponse>((resolve) => {
          finishLate = () => resolve({ status: 200, statusText: 'OK', url: 'https://late.example.com/', headers: {}, body: new Uint8Array() });
        }),
    );
    expectError(await run('async function execute() { await fetch("https://late.example.com/"); }', 'execute', { timeoutMs: 100 }, host), 'timeout');
    finishLate?.();
    await new Promise((r) => setImmediate(r));
    expect(resultOf(await run('function execute() { return "fine"; }'))).toBe('fine');
  });

  it('fs: read, write, append, exists, list and delete through the host, with host errors as guest errors with a code', async () => {
    const host = new FakeBridgeHost();
    const outcome = await run(
      `function execute() {
        var n = fs.writeFile('notes.txt', 'one');
        fs.appendFile('notes.txt', '+two');
        var missing;
        try { fs.readFile('nope.txt'); } catch (e) { missing = e.code + ': ' + e.message; }
        return { n: n, text: fs.readFile('notes.txt'), exists: fs.exists('notes.txt'), list: fs.list('.').map(function (e) { return e.name; }), deleted: fs.delete('notes.txt'), missing: missing };
      }`,
      'execute',
      {},
      host,
    );
    expect(JSON.parse(resultOf(outcome))).toEqual({
      n: 3,
      text: 'one+two',
      exists: true,
      list: ['notes.txt'],
      deleted: true,
      missing: "not_found: File 'nope.txt' does not exist.",
    });
  });

  it('_time, lib and google.getAccessToken reach the host; a missing library is a guest error', async () => {
    const host = new FakeBridgeHost();
    host.libraries.set('strings', 'exports.shout = function (s) { return s.toUpperCase() + "!"; }; module.exports.loaded = (module.exports.loaded || 0) + 1;');
    const outcome = await run(
      `async function execute() {
        var s = lib('strings'); var again = lib('strings');
        var missing; try { lib('nope'); } catch (e) { missing = e.code; }
        return { time: _time('Europe/Paris', 'human_readable'), shout: s.shout('hi'), cached: s === again && s.loaded === 1, missing: missing, token: await google.getAccessToken() };
      }`,
      'execute',
      {},
      host,
    );
    expect(JSON.parse(resultOf(outcome))).toEqual({
      time: '2026-11-22T10:00:00Z Europe/Paris human_readable',
      shout: 'HI!',
      cached: true,
      missing: 'lib_not_found',
      token: 'fake-access-token',
    });
  });

  it('a library that does not parse is a guest error naming the library', async () => {
    const host = new FakeBridgeHost();
    host.libraries.set('broken', 'exports.x = {');
    expectError(await run('function execute() { lib("broken"); }', 'execute', {}, host), 'execution_error', /Library 'broken' failed to load/);
  });
});

describe('SBX-12 no leaked memory', () => {
  const mixed = [
    'async function execute() { var r = await fetch("https://a.example.com/x"); return (await r.text()) + lib("lib1").v; }',
    'function execute() { fs.writeFile("a", "b"); console.log("x"); return fs.list("."); }',
    'function execute() { throw new Error("boom"); }',
    'async function execute() { await google.getAccessToken(); return Promise.reject(new Error("late")); }',
    'function execute() { while (true) {} }',
    'function missing() {}',
  ];
  const hostWithLib = () => {
    const host = new FakeBridgeHost();
    host.libraries.set('lib1', 'exports.v = 1;');
    return host;
  };

  // RELIABILITY B2 suggests the DEBUG_SYNC build's leak sanitizer. It costs about a second per
  // call here, and it did not flag a handle we leaked on purpose, while this heap check did: a
  // call that leaves one object alive grows the module's memory within a few hundred calls.
  it('the module heap stops growing: 600 more mixed calls after a warm-up leave the WebAssembly memory the same size', async () => {
    const host = hostWithLib();
    const runMixed = async (n: number) => {
      for (let i = 0; i < n; i++) await runJsCall(release, { ...call(mixed[i % mixed.length] as string), limits: { cpuMs: 2, stackBytes: 256 * 1024 } }, host);
    };
    await runMixed(60);
    const before = release.heap.bytes;
    await runMixed(600);
    expect(release.heap.bytes).toBe(before);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { compileScript } from './compiled-script';
import type { JsCall, JsCallOutcome } from './js-call';
import { WorkerJsRunner } from './worker-js-runner';

// Real worker threads running the real bridge host (confined fs under a temp folder).
let root: string;
let libs: string;
const runners: WorkerJsRunner[] = [];

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-worker-'));
  libs = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-libs-'));
  writeFileSync(path.join(libs, 'greet.js'), 'exports.greet = function (n) { return "hello " + n; };');
});

afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(libs, { recursive: true, force: true });
});

function runner(options: Partial<ConstructorParameters<typeof WorkerJsRunner>[0]> = {}): WorkerJsRunner {
  const r = new WorkerJsRunner({ bridge: { filesRoot: root, libraryFolders: [libs], defaultTimeZone: 'UTC' }, graceMs: 300, ...options });
  runners.push(r);
  return r;
}

const call = (source: string, extra: Partial<JsCall> = {}): JsCall => ({
  script: compileScript('tool.js', source),
  functionName: 'execute',
  params: {},
  env: {},
  timeoutMs: 5_000,
  ...extra,
});

function resultOf(outcome: JsCallOutcome): string {
  if (outcome.status !== 'success') throw new Error(`expected success, got ${outcome.errorType}: ${outcome.message}`);
  return outcome.result;
}

describe('WorkerJsRunner: calls in worker threads', () => {
  it('runs a call with the real bridges: confined fs, lib() from the library folder, _time', async () => {
    const outcome = await runner().run(
      call('function execute(p) { fs.writeFile("w/out.txt", p.text); return [fs.readFile("w/out.txt"), lib("greet").greet("worker"), _time("UTC").slice(-1)].join("|"); }', {
        params: { text: 'saved' },
      }),
    );
    expect(resultOf(outcome)).toBe('saved|hello worker|Z');
  });

  it("J5 a worker knows which functions the file declares: a built-in's name is not defined unless the file declares it", async () => {
    const r = runner();
    const outcome = await r.run(call('function other() { return 1; }', { functionName: 'eval', params: { x: 1 } }));
    expect(outcome).toMatchObject({ status: 'error', errorType: 'execution_error', message: "Function 'eval' is not defined" });
    expect(resultOf(await r.run(call('function parseInt(p) { return "mine"; }', { functionName: 'parseInt' })))).toBe('mine');
  });

  it('SBX-17 the fs bridge refuses paths outside the files root with the confined-fs rules', async () => {
    const outcome = await runner().run(call('function execute() { try { fs.readFile("../../etc/passwd"); } catch (e) { return e.code + ": " + e.message; } }'));
    expect(resultOf(outcome)).toMatch(/^forbidden: .*outside/);
  });

  it('SBX-03 a long native operation the interrupt handler cannot stop is ended by the watchdog; the worker is replaced and other calls are unaffected', async () => {
    const pool = runner({ maxWorkers: 2 });
    // Joining a billion holes is one native call of many seconds that allocates nothing.
    const stuck = pool.run(call('function execute() { return new Array(1e9).join("").length; }', { timeoutMs: 300 }));
    const healthy = pool.run(call('function execute() { return "unaffected"; }'));
    expect(resultOf(await healthy)).toBe('unaffected');
    const outcome = await stuck;
    expect(outcome.status === 'error' && outcome.errorType).toBe('timeout');
    expect(outcome.status === 'error' && outcome.message).toMatch(/terminated/);
    expect(pool.restarts).toBe(1);
    expect(resultOf(await pool.run(call('function execute() { return "next"; }')))).toBe('next');
  });

  it('a busy loop in a worker stops on cancel, through the shared cancel flag', async () => {
    const controller = new AbortController();
    // A grace far beyond what the interrupt handler needs, so only a cancel flag that does not
    // work ends in the watchdog's kill (restarts 1), never a worker slowed by a loaded machine.
    const pool = runner({ graceMs: 10_000 });
    const pending = pool.run(call('function execute() { while (true) {} }', { signal: controller.signal, timeoutMs: 10_000 }));
    setTimeout(() => controller.abort(), 100);
    const outcome = await pending;
    expect(outcome.status === 'error' && outcome.errorType).toBe('cancelled');
    // Stopped by the interrupt handler, not by killing the worker.
    expect(pool.restarts).toBe(0);
  }, 30_000);

  it('SBX-19 fifty calls in parallel: each gets its own runtime and its own answer, through a capped pool', async () => {
    const pool = runner({ maxWorkers: 3 });
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        pool.run(call('function execute(p) { if (globalThis.seen) throw new Error("leak"); globalThis.seen = true; return "n" + p.i; }', { params: { i } })),
      ),
    );
    expect(outcomes.map(resultOf)).toEqual(Array.from({ length: 50 }, (_, i) => `n${i}`));
    expect(pool.workerCount).toBeLessThanOrEqual(3);
  });

  it('google.getAccessToken() is answered by the parent, and a missing configuration is a clear guest error', async () => {
    const source = 'async function execute() { try { return await google.getAccessToken(); } catch (e) { return e.code; } }';
    expect(resultOf(await runner({ googleAccessToken: async () => 'ya29.parent-token' }).run(call(source)))).toBe('ya29.parent-token');
    expect(resultOf(await runner().run(call(source)))).toBe('google_not_configured');
  });

  it('the full stack limit (1 MiB) is usable in a worker, and deeper recursion is still a sandbox_limit', async () => {
    const pool = runner();
    const deep = await pool.run(call('function execute() { function d(n) { return n === 0 ? 0 : 1 + d(n - 1); } return d(4000); }'));
    expect(resultOf(deep)).toBe('4000');
    const bomb = await pool.run(call('function execute() { var f = function () { return f() + 1; }; return f(); }'));
    expect(bomb.status === 'error' && bomb.limit).toBe('stack');
    expect(pool.restarts).toBe(0);
  });

  it('warmUp starts a worker with its module loaded, which then takes the first call', async () => {
    const pool = runner({ maxWorkers: 2 });
    await pool.warmUp();
    expect(pool.workerCount).toBe(1);
    expect(resultOf(await pool.run(call('function execute() { return "warm"; }')))).toBe('warm');
    expect(pool.workerCount).toBe(1);
  });

  it.each([
    ['a prepared runtime (the default)', true],
    ['the old path (prepareRuntimes: false)', false],
  ])("SBX-14 F3 with %s, a call in the same worker never sees the previous call's globals, prototypes or bridge state", async (_label, prepareRuntimes) => {
    const pool = runner({ maxWorkers: 1, prepareRuntimes });
    const polluter = call(
      'var leaked = 1; function execute() { globalThis.marker = "set"; Object.prototype.polluted = true; JSON.parse = function () { return { hijacked: true }; }; console.log = function () {}; lib("greet").greet = null; return "polluted"; }',
    );
    const probe = call(
      'function execute(p) { console.log("seen"); return JSON.stringify({ leaked: typeof leaked, marker: typeof globalThis.marker, polluted: ({}).polluted === true, name: p.name, greet: typeof lib("greet").greet }); }',
      { params: { name: 'Ada' } },
    );
    for (let i = 0; i < 3; i++) {
      expect(resultOf(await pool.run(polluter))).toBe('polluted');
      const outcome = await pool.run(probe);
      expect(JSON.parse(resultOf(outcome))).toEqual({ leaked: 'undefined', marker: 'undefined', polluted: false, name: 'Ada', greet: 'function' });
      expect(outcome.logs).toEqual([{ level: 'log', message: 'seen' }]);
    }
    expect(pool.workerCount).toBe(1);
    expect(pool.restarts).toBe(0);
  });

  it('a worker runs with a small young generation (6 MB by default, or as configured) and the heap limit, and still moves values of megabytes in and out', async () => {
    const pool = runner({ maxWorkers: 1 });
    await pool.warmUp();
    expect(pool.workerResourceLimits()).toEqual([expect.objectContaining({ maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 128, stackSizeMb: 8 })]);
    // 2 MB in through the params and the fs bridge, 2 MB out as the result: strings as large as
    // a semi-space of that young generation, made in the worker's heap.
    writeFileSync(path.join(root, 'big.txt'), 'y'.repeat(2_000_000));
    const outcome = await pool.run(
      call('function execute(p) { var f = fs.readFile("big.txt"); return p.text.length + ":" + f.length + ":" + p.text.slice(-2) + f.slice(0, 2); }', {
        params: { text: 'x'.repeat(2_000_000) },
      }),
    );
    expect(resultOf(outcome)).toBe('2000000:2000000:xxyy');
    const echo = await pool.run(call('function execute(p) { return p.text; }', { params: { text: 'z'.repeat(2_000_000) } }));
    expect(resultOf(echo)).toHaveLength(2_000_000);
    expect(pool.restarts).toBe(0);

    const configured = runner({ maxWorkers: 1, workerYoungGenerationMb: 4 });
    await configured.warmUp();
    expect(configured.workerResourceLimits()).toEqual([expect.objectContaining({ maxYoungGenerationSizeMb: 4 })]);
  });

  it('refuses new calls once closed', async () => {
    const pool = runner();
    await pool.close();
    const outcome = await pool.run(call('function execute() { return 1; }'));
    expect(outcome.status === 'error' && outcome.errorType).toBe('cancelled');
  });
});

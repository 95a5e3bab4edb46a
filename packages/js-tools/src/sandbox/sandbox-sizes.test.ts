import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { FakeBridgeHost } from '../testing/fake-bridge-host';
import { compileScript } from './compiled-script';
import type { JsCall, JsCallOutcome } from './js-call';
import { loadFreshQuickJs, type SandboxModule } from './quickjs-module';
import { runJsCall } from './run-js-call';

// What the memory limit counts, and the caps on what crosses the sandbox boundary (J6).
let sandbox: SandboxModule;
beforeAll(async () => {
  // Its own module: calls here grow the heap, which must not change what other suites measure.
  sandbox = await loadFreshQuickJs();
});
// A heap that grew keeps its free space (runners retire such modules), so memory tests start fresh.
const freshModule = async () => {
  sandbox = await loadFreshQuickJs();
};

const MiB = 1024 * 1024;

function call(source: string, extra: Partial<JsCall> = {}): JsCall {
  return {
    script: compileScript('tool.js', source),
    functionName: 'execute',
    params: {},
    env: {},
    timeoutMs: 10_000,
    ...extra,
    limits: { stackBytes: 256 * 1024, ...extra.limits },
  };
}

const run = (source: string, extra: Partial<JsCall> = {}, host = new FakeBridgeHost()) => runJsCall(sandbox, call(source, extra), host);

function resultOf(outcome: JsCallOutcome): string {
  if (outcome.status !== 'success') throw new Error(`expected success, got ${outcome.errorType}: ${outcome.message}`);
  return outcome.result;
}

function failure(outcome: JsCallOutcome): { errorType: string; limit?: string } {
  return outcome.status === 'error' ? { errorType: outcome.errorType, ...(outcome.limit ? { limit: outcome.limit } : {}) } : { errorType: 'success' };
}

describe('the memory limit counts big allocations (J6)', () => {
  beforeEach(freshModule);

  it('strings a few MiB each add up: 12 MiB is held under a 16 MiB limit, 24 MiB is sandbox_limit (memory)', async () => {
    const hold = (mib: number) => `function execute() { var a = []; for (var i = 0; i < ${mib}; i++) a.push(i + "x".repeat(${MiB})); return a.length; }`;
    expect(resultOf(await run(hold(12)))).toBe('12');
    expect(failure(await run(hold(24)))).toEqual({ errorType: 'sandbox_limit', limit: 'memory' });
  });

  it('ArrayBuffers add up too, and a smaller limit is a smaller ceiling', async () => {
    const buffers = 'function execute() { var a = []; for (var i = 0; i < 6; i++) a.push(new Uint8Array(2 * 1024 * 1024)); return a.length; }';
    expect(failure(await run(buffers, { limits: { memoryBytes: 8 * MiB } }))).toEqual({ errorType: 'sandbox_limit', limit: 'memory' });
    await freshModule();
    expect(resultOf(await run(buffers))).toBe('6');
  });

  it('the module heap stays under the ceiling of the running call, and the budget is given back when it ends', async () => {
    await run('function execute() { var a = []; for (;;) a.push(new ArrayBuffer(1e6)); }');
    expect(sandbox.heap.bytes).toBeLessThanOrEqual(6 * MiB + 16 * MiB);
    expect(sandbox.heap.ceilingBytes).toBe(16 * MiB);
  });
});

describe('sizes crossing the bridges are capped', () => {
  it('params larger than inputChars are refused before they are copied in: sandbox_limit (input)', async () => {
    const outcome = await run('function execute(p) { return p.text.length; }', { params: { text: 'y'.repeat(5000) }, limits: { inputChars: 1000 } });
    expect(failure(outcome)).toEqual({ errorType: 'sandbox_limit', limit: 'input' });
    expect(outcome.status === 'error' && outcome.message).toMatch(/limit is 1000/);
  });

  it('a console line longer than maxLogLineChars is cut inside the guest, and says how long it was', async () => {
    const outcome = await run('function execute() { console.log("z".repeat(3 * 1024 * 1024)); return "ok"; }', { limits: { maxLogLineChars: 50 } });
    expect(resultOf(outcome)).toBe('ok');
    expect(outcome.logs[0]?.message).toBe(`${'z'.repeat(50)}… (${3 * MiB} characters, cut at 50)`);
  });

  it('a guest that breaks String.prototype.slice gets an empty cut line, never the whole string', async () => {
    const outcome = await run('function execute() { String.prototype.slice = function () { return this + this; }; console.log("q".repeat(500)); return "ok"; }', {
      limits: { maxLogLineChars: 50 },
    });
    expect(outcome.logs[0]?.message).toBe('… (500 characters, cut at 50)');
  });

  it('an fs read larger than bridgeChars is a guest error with code too_large; the call goes on', async () => {
    const host = new FakeBridgeHost();
    host.files.set('big.txt', 'b'.repeat(5000));
    const outcome = await run('function execute() { try { fs.readFile("big.txt"); } catch (e) { return e.code + ": " + e.message; } }', { limits: { bridgeChars: 1000 } }, host);
    expect(resultOf(outcome)).toMatch(/^too_large: .*at most 1000/);
  });

  it('a response body larger than bridgeChars is too_large when read as text or base64', async () => {
    const host = new FakeBridgeHost(async (request) => ({ status: 200, statusText: 'OK', url: request.url, headers: {}, body: new Uint8Array(900).fill(97) }));
    const source = `async function execute() {
      var r = await fetch("https://api.example.com/x");
      var text = (await r.text()).length;
      try { await r.base64(); } catch (e) { return text + " " + e.code; }
    }`;
    expect(resultOf(await run(source, { limits: { bridgeChars: 1000 } }, host))).toBe('900 too_large');
  });

  it('unread response bodies a call holds are capped; bodies already read are released to make room', async () => {
    const host = new FakeBridgeHost(async (request) => ({ status: 200, statusText: 'OK', url: request.url, headers: {}, body: new Uint8Array(400) }));
    const readEach = `async function execute() {
      var n = 0;
      for (var i = 0; i < 10; i++) { var r = await fetch("https://api.example.com/" + i); n += (await r.text()).length; }
      return n;
    }`;
    expect(resultOf(await run(readEach, { limits: { heldBodyBytes: 1000 } }, host))).toBe('4000');
    const hoard = `async function execute() {
      var kept = [];
      try { for (var i = 0; i < 10; i++) kept.push(await fetch("https://api.example.com/" + i)); } catch (e) { return kept.length + " " + e.code; }
    }`;
    expect(resultOf(await run(hoard, { limits: { heldBodyBytes: 1000 } }, host))).toBe('2 too_large');
  });

  it('a released body says why it is gone', async () => {
    const host = new FakeBridgeHost(async (request) => ({ status: 200, statusText: 'OK', url: request.url, headers: {}, body: new Uint8Array(400) }));
    const source = `async function execute() {
      var first = await fetch("https://api.example.com/1"); await first.text();
      await fetch("https://api.example.com/2"); await fetch("https://api.example.com/3");
      try { await first.text(); } catch (e) { return e.message; }
    }`;
    expect(resultOf(await run(source, { limits: { heldBodyBytes: 1000 } }, host))).toMatch(/released to make room/);
  });

  it('a library larger than bridgeChars is too_large', async () => {
    const host = new FakeBridgeHost();
    host.libraries.set('big', `exports.v = "${'l'.repeat(2000)}";`);
    const outcome = await run('function execute() { try { lib("big"); } catch (e) { return e.code; } }', { limits: { bridgeChars: 1000 } }, host);
    expect(resultOf(outcome)).toBe('too_large');
  });
});

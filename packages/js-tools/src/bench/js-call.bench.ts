/**
 * F3: the cost of one JS tool call in QuickJS, ours against the origin app's approach (a new
 * runtime and context, then the whole source evaluated, on every call), side by side in one run.
 * Run with `pnpm bench` (after a build); copy the output into docs/benchmarks.md.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { compileScript } from '../sandbox/compiled-script';
import { InProcessJsRunner } from '../sandbox/in-process-js-runner';
import type { JsCall } from '../sandbox/js-call';
import { loadQuickJs } from '../sandbox/quickjs-module';
import { WorkerJsRunner } from '../sandbox/worker-js-runner';
import { FakeBridgeHost } from '../testing/fake-bridge-host';

const TRIVIAL = 'function execute(params) { return "hello " + params.name; }';

/** A group file the size of the Gmail group: 120 tool functions sharing two helpers. */
function groupSource(functions: number): string {
  let source = 'function _url(path) { return "https://api.example.com/v1/" + path; }\nfunction _shape(r) { return JSON.stringify(r); }\n';
  for (let i = 0; i < functions; i++) {
    source += `async function tool${i}(params) {\n  var url = _url("items/${i}?q=" + encodeURIComponent(params.q || ""));\n  var result = { id: ${i}, url: url, items: [] };\n  for (var j = 0; j < 3; j++) result.items.push({ j: j, label: "item " + j });\n  if (params.fail) throw new Error("tool ${i} failed");\n  return _shape(result);\n}\n`;
  }
  return source;
}

/** The origin app's way: everything from scratch on every call. */
function originCall(module: QuickJSWASMModule, source: string, functionName: string, params: unknown): string {
  const rt = module.newRuntime();
  rt.setMemoryLimit(16 * 1024 * 1024);
  const ctx = rt.newContext();
  try {
    const code = `${source}\n;(function () { var r = ${functionName}(${JSON.stringify(params)}); return typeof r === 'string' ? r : JSON.stringify(r); })()`;
    const result = ctx.evalCode(code, 'tool.js');
    if (result.error) {
      result.error.dispose();
      throw new Error('origin call failed');
    }
    const state = ctx.getPromiseState(result.value);
    rt.executePendingJobs();
    const value = state.type === 'fulfilled' && !state.notAPromise ? ctx.dump(state.value) : ctx.dump(result.value);
    if (state.type === 'fulfilled' && !state.notAPromise) state.value.dispose();
    result.value.dispose();
    return String(value);
  } finally {
    ctx.dispose();
    rt.dispose();
  }
}

interface Stats {
  p50: number;
  p99: number;
  mean: number;
}

/** `gapMs`: an untimed pause before each call, as between a model's turns (a server never calls back to back). */
async function measure(iterations: number, fn: () => unknown, gapMs = 0): Promise<Stats> {
  for (let i = 0; i < Math.min(50, iterations); i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
  return { p50: at(0.5), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

const ms = (n: number) => `${n.toFixed(3)} ms`;

function row(label: string, s: Stats, baseline?: Stats): string {
  const ratio = baseline ? `${(s.p50 / baseline.p50).toFixed(2)}×` : '1.00×';
  return `| ${label} | ${ms(s.p50)} | ${ms(s.p99)} | ${ratio} |`;
}

async function main(): Promise<void> {
  const { quickjs: module } = await loadQuickJs();
  const runner = new InProcessJsRunner(new FakeBridgeHost());
  const pool = new WorkerJsRunner({ bridge: {}, maxWorkers: 1 });
  // The baseline for issue 17: each call makes and releases its runtime while the caller waits.
  const oldPool = new WorkerJsRunner({ bridge: {}, maxWorkers: 1, prepareRuntimes: false });
  const n = Number(process.env.BENCH_ITERATIONS ?? 1000);

  const trivial = compileScript('trivial.js', TRIVIAL);
  const group = compileScript('group.js', groupSource(120));
  const call = (script: typeof trivial, functionName: string, params: Record<string, unknown>): JsCall => ({ script, functionName, params, env: {}, timeoutMs: 30_000 });

  console.log(
    `F3 JS tool call overhead: ${os.cpus()[0]?.model ?? 'cpu'} (${os.cpus().length} cores), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, ${n} calls each`,
  );
  console.log(`group file: ${group.source.length} characters, 120 functions; slice evaluated for tool7: ${group.sliceFor('tool7').replace(/\n+/g, '\n').length} characters`);
  console.log('');
  console.log('| call | p50 | p99 | p50 vs origin |');
  console.log('|---|---|---|---|');

  const originTrivial = await measure(n, () => originCall(module, TRIVIAL, 'execute', { name: 'Ada' }));
  const oursTrivial = await measure(n, () => runner.run(call(trivial, 'execute', { name: 'Ada' })));
  const oldWorkerTrivial = await measure(n, () => oldPool.run(call(trivial, 'execute', { name: 'Ada' })));
  const workerTrivial = await measure(n, () => pool.run(call(trivial, 'execute', { name: 'Ada' })));
  console.log(row('trivial tool, origin (new runtime + context + eval whole source)', originTrivial));
  console.log(row('trivial tool, ours in-process (fresh runtime + bridges)', oursTrivial, originTrivial));
  console.log(row('trivial tool, ours in a worker, old path (runtime made and released during the call)', oldWorkerTrivial, originTrivial));
  console.log(row('trivial tool, ours in a worker, prepared runtime (the server default)', workerTrivial, originTrivial));
  // Back to back, the worker prepares the next runtime while the caller already waits for it; with
  // any gap between calls (a model round trip in the server) that work is off the call's path.
  const originGap = await measure(n, () => originCall(module, TRIVIAL, 'execute', { name: 'Ada' }), 1);
  const oldWorkerGap = await measure(n, () => oldPool.run(call(trivial, 'execute', { name: 'Ada' })), 1);
  const workerGap = await measure(n, () => pool.run(call(trivial, 'execute', { name: 'Ada' })), 1);
  console.log(row('trivial tool, origin, calls 1 ms apart', originGap));
  console.log(row('trivial tool, ours in a worker, old path, calls 1 ms apart', oldWorkerGap, originGap));
  console.log(row('trivial tool, ours in a worker, prepared runtime, calls 1 ms apart', workerGap, originGap));

  const originGroup = await measure(n, () => originCall(module, group.source, 'tool7', { q: 'x' }));
  const oursGroup = await measure(n, () => runner.run(call(group, 'tool7', { q: 'x' })));
  const workerGroup = await measure(n, () => pool.run(call(group, 'tool7', { q: 'x' })));
  const wholeFile = compileScript('group-whole.js', group.source, { slicing: false });
  const oursWhole = await measure(n, () => runner.run(call(wholeFile, 'tool7', { q: 'x' })));
  console.log(row('120-function group file, origin', originGroup));
  console.log(row('120-function group file, ours in-process, slice', oursGroup, originGroup));
  console.log(row('120-function group file, ours in-process, whole file (slicing off)', oursWhole, originGroup));
  console.log(row('120-function group file, ours in a worker thread, slice', workerGroup, originGroup));

  await pool.close();
  await oldPool.close();

  // Cold: a new worker thread, its QuickJS module and the first call, as after a restart.
  const cold: number[] = [];
  for (let i = 0; i < 7; i++) {
    const fresh = new WorkerJsRunner({ bridge: {}, maxWorkers: 1 });
    const t = performance.now();
    await fresh.run(call(trivial, 'execute', { name: 'Ada' }));
    cold.push(performance.now() - t);
    await fresh.close();
  }
  cold.sort((a, b) => a - b);
  console.log('');
  console.log(`cold call (new worker thread + WebAssembly module + first call), median of 7: ${ms(cold[3] as number)}`);
  const warmed: number[] = [];
  for (let i = 0; i < 7; i++) {
    const fresh = new WorkerJsRunner({ bridge: {}, maxWorkers: 1 });
    await fresh.warmUp();
    const t = performance.now();
    await fresh.run(call(trivial, 'execute', { name: 'Ada' }));
    warmed.push(performance.now() - t);
    await fresh.close();
  }
  warmed.sort((a, b) => a - b);
  console.log(`first call after warmUp() (what the server does at start), median of 7: ${ms(warmed[3] as number)}`);
}

void main();

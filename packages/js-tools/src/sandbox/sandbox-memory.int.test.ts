import { afterEach, describe, expect, it } from '@jest/globals';
import { compileScript } from './compiled-script';
import type { JsCall, JsCallOutcome } from './js-call';
import { WorkerJsRunner } from './worker-js-runner';

// J6 / SBX-04 with real worker threads: the memory limit holds for every allocation shape, and
// the server process does not keep what the bombs took.
const runners: WorkerJsRunner[] = [];

afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

function pool(): WorkerJsRunner {
  const runner = new WorkerJsRunner({ bridge: {}, maxWorkers: 4 });
  runners.push(runner);
  return runner;
}

const call = (source: string): JsCall => ({
  script: compileScript('bomb.js', source),
  functionName: 'execute',
  params: {},
  env: {},
  // Far above what hitting the limit takes, so only the memory limit can end these calls.
  timeoutMs: 20_000,
});

const BOMBS = {
  // charCodeAt flattens QuickJS's rope, so every doubling is a real allocation.
  'doubling string': 'function execute() { var s = "x"; for (;;) { s += s; s.charCodeAt(s.length - 1); } }',
  'array of string pieces': 'function execute() { var a = []; for (var i = 0; ; i++) a.push(i + "x".repeat(1e6)); }',
  'ArrayBuffers and typed arrays': 'function execute() { var a = []; for (;;) { a.push(new ArrayBuffer(2e6)); a.push(new Float64Array(2.5e5)); } }',
  'JSON.stringify of a big structure': `function execute() {
      var rows = []; for (var i = 0; i < 20000; i++) rows.push({ id: i, name: "row " + i, tags: ["a", "b"] });
      var keep = []; for (;;) keep.push(JSON.stringify(rows));
    }`,
};

function memoryLimitHit(outcome: JsCallOutcome): { errorType?: string; limit?: string } {
  return outcome.status === 'error' ? { errorType: outcome.errorType, limit: outcome.limit } : { errorType: 'success' };
}

describe('the sandbox memory limit under real workers (J6)', () => {
  it('four concurrent memory bombs of different shapes each end as sandbox_limit (memory), and RSS is back within 100 MB after them', async () => {
    const runner = pool();
    // Four workers with their modules loaded, so the baseline includes what a warm pool costs.
    const warm = await Promise.all(Array.from({ length: 4 }, () => runner.run(call('function execute() { return 1; }'))));
    expect(warm.map((o) => o.status)).toEqual(['success', 'success', 'success', 'success']);
    const before = process.memoryUsage.rss();

    const outcomes = await Promise.all(Object.values(BOMBS).map((source) => runner.run(call(source))));

    const after = process.memoryUsage.rss();
    expect(Object.fromEntries(Object.keys(BOMBS).map((name, i) => [name, memoryLimitHit(outcomes[i] as JsCallOutcome)]))).toEqual(
      Object.fromEntries(Object.keys(BOMBS).map((name) => [name, { errorType: 'sandbox_limit', limit: 'memory' }])),
    );
    expect((after - before) / (1024 * 1024)).toBeLessThan(100);
    // The workers whose heaps grew were replaced; none was killed.
    expect(runner.recycled).toBe(4);
    expect(runner.restarts).toBe(0);
    const next = await runner.run(call('function execute() { return "still works"; }'));
    expect(next.status === 'success' && next.result).toBe('still works');
  }, 120_000);
});

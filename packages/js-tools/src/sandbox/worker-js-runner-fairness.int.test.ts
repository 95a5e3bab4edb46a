import { afterEach, describe, expect, it } from '@jest/globals';
import { ToolExecutionEngine, ToolRegistry, resolveToolDefinition } from '@oneclaw/tool-registry';
import { JsTool } from '../tools/js-tool';
import { compileScript } from './compiled-script';
import type { JsCall, JsCallOutcome } from './js-call';
import { WorkerJsRunner, type WorkerJsRunnerOptions } from './worker-js-runner';

// J6: one session cannot starve the others' JavaScript tools (real worker threads).
const runners: WorkerJsRunner[] = [];

afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

function pool(options: Partial<WorkerJsRunnerOptions> = {}): WorkerJsRunner {
  const runner = new WorkerJsRunner({ bridge: {}, graceMs: 500, ...options });
  runners.push(runner);
  return runner;
}

// A loop the interrupt handler ends at its timeout; it holds its worker until then.
const LOOP = compileScript('loop.js', 'function execute() { while (true) {} }');
const QUICK = compileScript('quick.js', 'function execute(p) { return "quick " + p.who; }');
const NOW = compileScript('now.js', 'function execute() { return "now"; }');

const loop = (sessionId: string, timeoutMs = 1500): JsCall => ({ script: LOOP, functionName: 'execute', params: {}, env: {}, timeoutMs, sessionId });
const quick = (sessionId: string, timeoutMs = 500): JsCall => ({ script: QUICK, functionName: 'execute', params: { who: sessionId }, env: {}, timeoutMs, sessionId });

function errorTypeOf(outcome: JsCallOutcome): string {
  return outcome.status === 'error' ? outcome.errorType : 'success';
}

describe('WorkerJsRunner shares its workers fairly between sessions', () => {
  it("session A queues long loops; session B's short call starts at once on the worker no single session may take, before any of A's calls ends", async () => {
    const runner = pool({ maxWorkers: 2 });
    const finished: string[] = [];
    const track = (label: string, outcome: Promise<JsCallOutcome>) => outcome.then((o) => (finished.push(label), o));
    const stopA = new AbortController();
    // A's loops would run 20 s each; only the abort below ends them, so nothing of A finishes
    // before B unless B had to wait for A.
    const a = [1, 2, 3, 4].map((n) => track(`A${n}`, runner.run({ ...loop('A', 20_000), signal: stopA.signal })));
    // One of A's calls runs; the other worker is out of A's reach.
    expect(runner.queueLength).toBe(3);
    // B's timeout (500 ms) would be too short had it waited for a whole A loop.
    const b = await track('B', runner.run(quick('B')));
    expect(b.status === 'success' && b.result).toBe('quick B');
    expect(finished).toEqual(['B']);
    stopA.abort();
    expect((await Promise.all(a)).map(errorTypeOf)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
  }, 30_000);

  it("through the engine: B's JS tool succeeds while A's loops hold every worker A may take; the wait does not count against B's 300 ms timeout", async () => {
    const runner = pool({ maxWorkers: 2 });
    const registry = new ToolRegistry();
    const jsTool = (name: string, script: typeof LOOP, timeoutMs: number) =>
      new JsTool({
        definition: resolveToolDefinition({ name, description: name, parameters: { type: 'object', properties: {} }, timeoutMs }),
        script,
        functionName: 'execute',
        runner,
      });
    registry.register(jsTool('spin', LOOP, 1500), { kind: 'js-user', fileName: 'loop.js' });
    registry.register(jsTool('get_time', NOW, 300), { kind: 'js-user', fileName: 'now.js' });
    const engine = new ToolExecutionEngine(registry);
    const active = ['spin', 'get_time'];
    const spinning = engine.executeAll(
      [
        { callId: 'a1', toolName: 'spin', arguments: {} },
        { callId: 'a2', toolName: 'spin', arguments: {} },
      ],
      { sessionId: 'A', activeToolNames: active },
    );
    const b = await engine.execute({ callId: 'b1', toolName: 'get_time', arguments: {} }, { sessionId: 'B', activeToolNames: active });
    expect(b.result).toEqual({ status: 'success', result: 'now' });
    expect((await spinning).map((o) => o.result.status === 'error' && o.result.errorType)).toEqual(['timeout', 'timeout']);
  }, 30_000);

  it('a full queue answers busy at once, with what to do', async () => {
    const runner = pool({ maxWorkers: 1, maxQueue: 1 });
    const running = runner.run(loop('A'));
    const queued = runner.run(loop('A'));
    const refused = await runner.run(quick('B'));
    expect(errorTypeOf(refused)).toBe('busy');
    expect(refused.status === 'error' && refused.message).toMatch(/busy.*Try again/);
    expect((await Promise.all([running, queued])).map(errorTypeOf)).toEqual(['timeout', 'timeout']);
  }, 30_000);

  it('a call that waits longer than maxWaitMs for a worker is busy; one cancelled while waiting leaves the queue at once', async () => {
    const runner = pool({ maxWorkers: 1, maxWaitMs: 200 });
    const running = runner.run(loop('A', 2000));
    expect(errorTypeOf(await runner.run(quick('B')))).toBe('busy');
    const controller = new AbortController();
    const waiting = runner.run({ ...quick('C'), signal: controller.signal });
    expect(runner.queueLength).toBe(1);
    controller.abort();
    expect(errorTypeOf(await waiting)).toBe('cancelled');
    expect(runner.queueLength).toBe(0);
    // The loop ran on; its own timeout ends it.
    expect(errorTypeOf(await running)).toBe('timeout');
  }, 30_000);
});

/**
 * Issue 4 figures on the shipped catalogue: how long loading every shipped manifest takes (parse,
 * validate, compile each JS file, register every tool), and a Google tool call end to end
 * (QuickJS, the fetch bridge, TLS through the intercepting proxy, the fake Google API).
 * Run with `pnpm bench`; copy the output into docs/benchmarks.md.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { InProcessJsRunner, JsToolCatalogue, WorkerJsRunner, createBridgeHost, type JsRunner } from '@oneclaw/js-tools';
import { FakeBridgeHost } from '@oneclaw/js-tools/testing';
import { ToolExecutionEngine, ToolRegistry } from '@oneclaw/tool-registry';
import { BUILTIN_JS_LIB_FOLDER, BUILTIN_JS_TOOLS_FOLDER } from '../index';
import { FakeGoogleApi } from '../testing/fake-google-api';
import { registerAllGoogleRoutes } from '../testing/fake-google/all';

function percentiles(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return { p50: at(0.5), p99: at(0.99) };
}

const ms = (n: number) => `${n.toFixed(2)} ms`;

async function loadTime(): Promise<void> {
  const runner = new InProcessJsRunner(new FakeBridgeHost());
  const samples: number[] = [];
  let summary = '';
  for (let i = 0; i < 30; i++) {
    const registry = new ToolRegistry();
    const t = performance.now();
    const report = new JsToolCatalogue({ registry, runner, folders: [{ path: BUILTIN_JS_TOOLS_FOLDER, kind: 'js-built-in' }] }).loadAll();
    samples.push(performance.now() - t);
    const chars = report.files.length;
    summary = `${chars} files, ${registry.toolNames().length} tools, ${registry.groupNames().length} groups, ${report.problems.length} problems`;
  }
  const { p50, p99 } = percentiles(samples);
  console.log(`catalogue load (every shipped manifest parsed and checked, every JS file parsed once, every schema compiled, every tool registered): ${summary}`);
  console.log(`| load | p50 ${ms(p50)} | p99 ${ms(p99)} | (30 loads) |`);
}

async function googleCall(
  label: string,
  makeRunner: (config: Parameters<typeof createBridgeHost>[0], token: () => Promise<string>) => { runner: JsRunner; close: () => Promise<void> },
): Promise<void> {
  const api = await FakeGoogleApi.start();
  registerAllGoogleRoutes(api);
  const { runner, close } = makeRunner(
    { fetch: { proxyUrl: api.proxyUrl, caCertificates: [api.caCertificate] }, libraryFolders: [BUILTIN_JS_LIB_FOLDER] },
    async () => api.accessToken,
  );
  const registry = new ToolRegistry();
  new JsToolCatalogue({ registry, runner, folders: [{ path: BUILTIN_JS_TOOLS_FOLDER, kind: 'js-built-in' }] }).loadAll();
  const engine = new ToolExecutionEngine(registry);
  const scope = { sessionId: 'bench', activeToolNames: registry.toolNames() };
  const cases: [string, Record<string, unknown>][] = [
    ['gmail_list_labels', {}],
    ['gmail_search', { query: 'in:inbox', max_results: 3 }],
  ];
  for (const [tool, args] of cases) {
    const samples: number[] = [];
    for (let i = 0; i < 230; i++) {
      const t = performance.now();
      const outcome = await engine.execute({ callId: `c${i}`, toolName: tool, arguments: args }, scope);
      if (outcome.result.status !== 'success') throw new Error(`${tool} failed: ${outcome.result.message}`);
      if (i >= 30) samples.push(performance.now() - t);
      api.clearRequests();
    }
    const { p50, p99 } = percentiles(samples);
    console.log(`| ${tool} (${label}) | p50 ${ms(p50)} | p99 ${ms(p99)} | (200 calls) |`);
  }
  await close();
  await api.close();
}

async function main(): Promise<void> {
  console.log(`tools-assets: ${os.cpus()[0]?.model ?? 'cpu'} (${os.cpus().length} cores), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
  await loadTime();
  console.log('');
  console.log('Google tool calls against the loopback fake Google API (gmail_search = 1 list + 1 metadata request per hit):');
  await googleCall('in-process', (config, token) => {
    const host = createBridgeHost(config, { googleAccessToken: token });
    const runner = new InProcessJsRunner(host);
    return { runner, close: () => host.close() };
  });
  await googleCall('worker thread', (config, token) => {
    const runner = new WorkerJsRunner({ bridge: config, googleAccessToken: token, maxWorkers: 1 });
    return { runner, close: () => runner.close() };
  });
}

void main();

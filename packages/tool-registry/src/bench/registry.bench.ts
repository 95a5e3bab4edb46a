// F1 and F2 (SPEC.md): tool-schema tokens per request, and the latency of load_tool_group, the
// prompt listing and catalogue registration, on the test catalogue. Not a test: it prints tables.
// Run with `pnpm bench` (or `node dist/bench/registry.bench.js` after a build).
import { cpus } from 'node:os';
import { ToolExecutionEngine } from '../execution/tool-execution-engine';
import { createLoadToolGroupTool, LOAD_TOOL_GROUP } from '../load-tool-group-tool';
import { countToolPayloadTokens } from '../providers/token-count';
import { createTestCatalogue, fakeTool, GROUP_SPECS, CORE_TOOL_SPECS, parseToolSpec, toolTokenTable } from '../testing';
import type { Tool } from '../tool';
import { ToolGroupPrompt } from '../tool-group-prompt';
import { ToolRegistry } from '../tool-registry';
import type { ToolSource } from '../tool-source';

const LOAD_DIRECT = 'load_tool_group("config"), the tool itself';
const LOAD_ENGINE = 'load_tool_group("config") through the engine (all checks, timeout)';
const LISTING_CACHED = 'prompt listing, cached (every request)';
const LISTING_REBUILT = 'prompt listing, rebuilt (after a registry change)';
const REGISTER = 'register 160 tools with schema compilation (new registry, new Ajv)';

async function main(): Promise<void> {
  // tinybench is ESM-only; a dynamic import loads it from this CommonJS build.
  const { Bench } = await import('tinybench');
  const cpu = cpus();
  console.log(`# @oneclaw/tool-registry benchmarks\n\n${new Date().toISOString()} · ${cpu[0]?.model.trim() ?? 'unknown CPU'} · ${cpu.length} cores · Node ${process.version}\n`);

  const { registry } = createTestCatalogue();
  f1(registry);

  // ---- F2: latency -------------------------------------------------------------------------
  const loadTool = createLoadToolGroupTool(registry);
  const engine = new ToolExecutionEngine(registry);
  const context = { signal: new AbortController().signal, sessionId: 'bench', callId: 'c', env: {} };
  const fresh = { sessionId: 'bench', activeToolNames: registry.coreToolNames() };
  const prompt = new ToolGroupPrompt(registry);
  const catalogue160 = build160();

  const fast = new Bench({ iterations: 100_000, time: 0, warmupIterations: 1_000 });
  fast
    .add(LOAD_DIRECT, async () => {
      await loadTool.execute({ group_name: 'config' }, context);
    })
    .add(LOAD_ENGINE, async () => {
      await engine.execute({ callId: 'c', toolName: LOAD_TOOL_GROUP, arguments: '{"group_name":"config"}' }, fresh);
    })
    .add(LISTING_CACHED, () => {
      prompt.render();
    })
    .add(LISTING_REBUILT, () => {
      new ToolGroupPrompt(registry).render();
    });
  const slow = new Bench({ iterations: 20, time: 0, warmupIterations: 3 });
  slow.add(REGISTER, () => {
    catalogue160.register();
  });
  slow.add('schema tokens of a fresh-session payload (OpenAI, uncached count)', () => {
    countToolPayloadTokens(registry.toolPayload('openai', registry.coreToolNames()));
  });

  await fast.run();
  await slow.run();

  // Targets from the seeds: tool group routing (load < 10 ms, listing < 5 ms) and the tool
  // system (engine overhead < 10 ms, registration of the built-ins < 100 ms).
  const targets: Record<string, number> = {
    [LOAD_DIRECT]: 10,
    [LOAD_ENGINE]: 10,
    [LISTING_CACHED]: 5,
    [LISTING_REBUILT]: 5,
    [REGISTER]: 100,
  };
  console.log('## F2: latency\n');
  console.log('Seed targets: load_tool_group < 10 ms, prompt listing < 5 ms, engine overhead < 10 ms, registration < 100 ms. Headroom = target / p99.\n');
  console.log('| operation | samples | p50 | p99 | mean | target | headroom |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const task of [...fast.tasks, ...slow.tasks]) {
    const r = task.result;
    if (r.state !== 'completed') {
      console.log(`| ${task.name} | ${r.state} | | | | | |`);
      continue;
    }
    const target = targets[task.name];
    console.log(
      `| ${task.name} | ${task.runs} | ${duration(r.latency.p50)} | ${duration(r.latency.p99)} | ${duration(r.latency.mean)} | ${target ? `${target} ms` : '–'} | ${target ? ratio(target / r.latency.p99) : '–'} |`,
    );
  }
  const reg = slow.tasks[0]?.result;
  if (reg?.state === 'completed') {
    console.log(`\nRegistration: ${duration(reg.latency.mean / catalogue160.count)} per tool on average (checks, Ajv compile, lint for 3 providers).`);
  }
}

/** F1: what the model is sent per request, by scenario and provider format. */
function f1(registry: ToolRegistry): void {
  console.log(`## F1: tool-schema tokens per request (o200k)\n`);
  console.log(`Test catalogue: ${toolTokenTable(registry, ['google_gmail', 'config'])}\n`);
}

/** The test catalogue plus synthetic tools, 160 in all, registered into a new registry each time. */
function build160(): { count: number; register: () => ToolRegistry } {
  const tools: { tool: Tool; source: ToolSource }[] = [];
  const builtIn: ToolSource = { kind: 'built-in' };
  for (const line of CORE_TOOL_SPECS) tools.push({ tool: fakeTool(parseToolSpec(line).name, parseToolSpec(line)), source: builtIn });
  for (const group of GROUP_SPECS) {
    for (const line of group.tools) {
      const definition = parseToolSpec(line);
      tools.push({ tool: fakeTool(definition.name, definition), source: { kind: 'built-in', group: group.name } });
    }
  }
  for (let i = tools.length + 1; tools.length < 159; i++) {
    const definition = parseToolSpec(`extra_tool_${i} | Synthetic tool ${i}. | query*, limit:integer, tags:string[], mode:fast/slow`);
    tools.push({ tool: fakeTool(definition.name, definition), source: builtIn });
  }
  const register = (): ToolRegistry => {
    const r = new ToolRegistry();
    r.register(createLoadToolGroupTool(r), builtIn);
    for (const g of GROUP_SPECS) r.registerGroup({ name: g.name, displayName: g.displayName, description: g.description }, builtIn);
    for (const { tool, source } of tools) r.register(tool, source);
    return r;
  };
  if (tools.length + 1 !== 160) throw new Error(`expected 160 tools, built ${tools.length + 1}`);
  return { count: tools.length + 1, register };
}

/** tinybench reports milliseconds; sub-millisecond values read better in µs. */
function duration(milliseconds: number): string {
  if (milliseconds >= 100) return `${milliseconds.toFixed(0)} ms`;
  if (milliseconds >= 1) return `${milliseconds.toFixed(2)} ms`;
  return `${(milliseconds * 1000).toFixed(2)} µs`;
}

function ratio(value: number): string {
  return value >= 100 ? `${value.toFixed(0)}×` : `${value.toFixed(2)}×`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

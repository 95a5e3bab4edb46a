/**
 * F1 (SPEC.md) on the real catalogue (issue 6): the tool-schema tokens each model request
 * carries, as the booted server registers its tools (TypeScript built-ins, shipped JS tools,
 * the ten Google groups), against the baseline of sending every tool on every request. Also the
 * boot time of a server with that catalogue (F2, registration at start-up).
 *   pnpm --filter @oneclaw/server bench   (… && node dist/bench/catalogue.bench.js)
 * Environment: BENCH_BOOTS (5).
 */
import 'reflect-metadata';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { ToolRegistry, countTextTokens, countToolPayloadTokens, ToolGroupPrompt } from '@oneclaw/tool-registry';
import { toolTokenTable } from '@oneclaw/tool-registry/testing';
import { startTestServer } from '../testing/test-server';
import { ToolRuntime } from '../tools/tool-runtime';
import { CORE_TOOLS_BEFORE, GROUP_DESCRIPTIONS_BEFORE } from './core-tools-before';

const BOOTS = Number(process.env.BENCH_BOOTS ?? 5);

async function main(): Promise<void> {
  const cpus = os.cpus();
  console.log(
    `# @oneclaw/server: the real catalogue\n\n${new Date().toISOString()} · ${cpus[0]?.model.trim() ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version}\n`,
  );

  const boots: number[] = [];
  let table = '';
  let beforeTable = '';
  let perTool = '';
  for (let i = 0; i < BOOTS; i++) {
    const started = performance.now();
    const server = await startTestServer();
    boots.push(performance.now() - started);
    if (i === 0) {
      const registry = server.app.get(ToolRuntime).registry;
      const before = registryBefore(registry);
      const groups = ['config', 'pdf', 'scheduled_tasks', 'js_tool_management', 'google_gmail'];
      table = toolTokenTable(registry, groups);
      beforeTable = toolTokenTable(before, groups);
      perTool = perToolTable(before, registry);
    }
    await server.close();
  }

  console.log('## F1: tool-schema tokens per request on the real catalogue (o200k)\n');
  console.log(`${table}\n`);
  console.log('## F1 baseline: the same catalogue with the core tools and group listing as before issue 17\n');
  console.log(`${beforeTable}\n`);
  console.log('## F1: each core tool and the group listing, before and after (o200k)\n');
  console.log(`${perTool}\n`);
  boots.sort((a, b) => a - b);
  console.log('## Boot with the full catalogue\n');
  console.log(
    `startTestServer (Nest app, SQLite store, tool registration with schema compilation, JS catalogue, listen) over ${BOOTS} boots: median ${ms(boots[Math.floor(boots.length / 2)] ?? 0)}, min ${ms(boots[0] ?? 0)}, max ${ms(boots.at(-1) ?? 0)}.`,
  );
}

/**
 * The server's registry as it was before issue 17 tightened the core tools and the group
 * listing: every tool and group copied, the 13 core definitions and the group descriptions
 * taken from the snapshot in core-tools-before.ts. The old figures stay callable side by side.
 */
function registryBefore(current: ToolRegistry): ToolRegistry {
  const before = new ToolRegistry();
  const oldCore = new Map(CORE_TOOLS_BEFORE.map((t) => [t.name, t]));
  for (const group of current.allGroups()) {
    const registered = current.group(group.name);
    if (!registered) continue;
    before.registerGroup({ ...group, description: GROUP_DESCRIPTIONS_BEFORE[group.name] ?? group.description }, registered.origin);
    if (!current.isGroupEnabled(group.name)) before.setGroupEnabled(group.name, false);
  }
  for (const name of current.toolNames()) {
    const registered = current.get(name);
    if (!registered) continue;
    const old = oldCore.get(name);
    // A JS tool is a class instance: keep its prototype (execute), swap only the definition.
    const tool = old
      ? (Object.assign(Object.create(registered.tool) as object, {
          definition: { ...registered.tool.definition, description: old.description, parameters: old.parameters },
        }) as typeof registered.tool)
      : registered.tool;
    before.register(tool, registered.source);
    if (!current.isToolEnabled(name)) before.setToolEnabled(name, false);
  }
  return before;
}

/** Tokens of each core tool alone (OpenAI format) and of the group listing, before and after. */
function perToolTable(before: ToolRegistry, after: ToolRegistry): string {
  const lines = ['| core tool (OpenAI format, alone) | before | after | change |', '|---|---:|---:|---:|'];
  const row = (name: string, b: number, a: number) => lines.push(`| ${name} | ${b} | ${a} | ${a - b >= 0 ? '+' : ''}${(((a - b) / b) * 100).toFixed(0)}% |`);
  let sumBefore = 0;
  let sumAfter = 0;
  for (const name of after.coreToolNames()) {
    const b = countToolPayloadTokens(before.toolPayload('openai', [name]));
    const a = countToolPayloadTokens(after.toolPayload('openai', [name]));
    sumBefore += b;
    sumAfter += a;
    row(name, b, a);
  }
  row('sum of the 13 alone', sumBefore, sumAfter);
  row(
    'the 13 in one request',
    countToolPayloadTokens(before.toolPayload('openai', before.coreToolNames())),
    countToolPayloadTokens(after.toolPayload('openai', after.coreToolNames())),
  );
  row('"Available Tool Groups" listing', countTextTokens(new ToolGroupPrompt(before).render()), countTextTokens(new ToolGroupPrompt(after).render()));
  const freshBefore = countToolPayloadTokens(before.toolPayload('openai', before.coreToolNames())) + countTextTokens(new ToolGroupPrompt(before).render());
  const freshAfter = countToolPayloadTokens(after.toolPayload('openai', after.coreToolNames())) + countTextTokens(new ToolGroupPrompt(after).render());
  const allBefore = countToolPayloadTokens(before.toolPayload('openai', before.toolNames()));
  lines.push(
    '',
    `Fresh session (OpenAI): ${freshBefore} → ${freshAfter} tokens; against the all-tools baseline before issue 17 (${allBefore}): ${(freshBefore / allBefore).toFixed(3)}× → ${(freshAfter / allBefore).toFixed(3)}× (target ≤ 0.07×).`,
  );
  return lines.join('\n');
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

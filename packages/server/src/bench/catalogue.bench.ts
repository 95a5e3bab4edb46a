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
import { toolTokenTable } from '@oneclaw/tool-registry/testing';
import { startTestServer } from '../testing/test-server';
import { ToolRuntime } from '../tools/tool-runtime';

const BOOTS = Number(process.env.BENCH_BOOTS ?? 5);

async function main(): Promise<void> {
  const cpus = os.cpus();
  console.log(
    `# @oneclaw/server: the real catalogue\n\n${new Date().toISOString()} · ${cpus[0]?.model.trim() ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version}\n`,
  );

  const boots: number[] = [];
  let table = '';
  for (let i = 0; i < BOOTS; i++) {
    const started = performance.now();
    const server = await startTestServer();
    boots.push(performance.now() - started);
    if (i === 0) table = toolTokenTable(server.app.get(ToolRuntime).registry, ['config', 'pdf', 'scheduled_tasks', 'js_tool_management', 'google_gmail']);
    await server.close();
  }

  console.log('## F1: tool-schema tokens per request on the real catalogue (o200k)\n');
  console.log(`${table}\n`);
  boots.sort((a, b) => a - b);
  console.log('## Boot with the full catalogue\n');
  console.log(
    `startTestServer (Nest app, SQLite store, tool registration with schema compilation, JS catalogue, listen) over ${BOOTS} boots: median ${ms(boots[Math.floor(boots.length / 2)] ?? 0)}, min ${ms(boots[0] ?? 0)}, max ${ms(boots.at(-1) ?? 0)}.`,
  );
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * Request bodies (issue 17): the JSON text of a request late in a long conversation, built from
 * the JSON kept from the request before (`bodyJson`, what `complete` sends) against serializing
 * the whole body (`JSON.stringify(buildBody(request))`, what every provider did before). Per
 * provider, in-process, no HTTP.
 *   pnpm --filter @oneclaw/model-providers bench   (node dist/bench/body-json.bench.js)
 * The conversation: turns of a user message of 760 characters, a tool call, its result and a
 * short reply (the memory bench's shape); requests are timed from turn 900 to 1,000, each going
 * on from the one before, as a session's requests do, each timed up to its bytes (`Buffer.from`, as
 * undici makes of a string body). Environment: BENCH_SAMPLES (3).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ToolPayload } from '@oneclaw/tool-registry';
import { AnthropicProvider } from '../anthropic/anthropic-provider';
import { GeminiProvider } from '../gemini/gemini-provider';
import type { ChatMessage, ModelRequest } from '../model-provider';
import { OpenAiCompatibleProvider } from '../openai-compatible/openai-compatible-provider';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 3);
const TURNS = 1000;
const TIMED_FROM = 900;

interface BodyBuilder {
  buildBody(request: ModelRequest): Record<string, unknown>;
  bodyJson(request: ModelRequest): string;
}

function turn(t: number): ChatMessage[] {
  const callId = `call_${t}`;
  return [
    { role: 'user', text: `turn ${t}: ${'the quick brown fox jumps over a lazy dog '.repeat(19)}`.slice(0, 760) },
    { role: 'assistant', text: '', toolCalls: [{ callId, toolName: 'get_current_time', arguments: { timezone: 'UTC' } }] },
    { role: 'tool', callId, toolName: 'get_current_time', content: '{"iso":"2026-11-26T06:40:38.385Z","timezone":"UTC"}', isError: false },
    { role: 'assistant', text: 'It is 06:40 UTC.', toolCalls: [] },
  ];
}

const TOOLS: Record<'openai' | 'anthropic' | 'gemini', ToolPayload> = {
  openai: { provider: 'openai', tools: [{ type: 'function', function: { name: 'get_current_time', description: 'Now.', parameters: { type: 'object', properties: {} } } }] },
  anthropic: { provider: 'anthropic', tools: [{ name: 'get_current_time', description: 'Now.', input_schema: { type: 'object', properties: {} } }] },
  gemini: {
    provider: 'gemini',
    tools: [{ functionDeclarations: [{ name: 'get_current_time', description: 'Now.', parameters: { type: 'object', properties: {} } }] }],
  } as ToolPayload,
};

/** µs per request over the timed turns, and the body size at the end. */
function run(provider: BodyBuilder, tools: ToolPayload, build: (p: BodyBuilder, r: ModelRequest) => string): { micros: number; bytes: number } {
  let messages: ChatMessage[] = [];
  let elapsed = 0;
  let bytes = 0;
  for (let t = 0; t < TURNS; t++) {
    messages = [...messages, ...turn(t)];
    const request: ModelRequest = { model: 'bench-model', system: 'You are terse.', messages, tools };
    const started = performance.now();
    // As undici takes a string body: to bytes, in one buffer.
    bytes = Buffer.from(build(provider, request), 'utf8').length;
    if (t >= TIMED_FROM) elapsed += performance.now() - started;
  }
  return { micros: (elapsed * 1000) / (TURNS - TIMED_FROM), bytes };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function main(): void {
  const cpus = os.cpus();
  console.log(`## Request body JSON late in a ${TURNS}-turn conversation: µs per request (median of ${SAMPLES} runs, turns ${TIMED_FROM} to ${TURNS})\n`);
  console.log(`${new Date().toISOString()} · ${cpus[0]?.model ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version}\n`);
  console.log('| provider | body at the end | JSON.stringify(buildBody) (before) | bodyJson (kept JSON) | ours / before |');
  console.log('|---|---:|---:|---:|---:|');
  const providers = [
    ['openai', () => new OpenAiCompatibleProvider({ apiKey: 'k' })],
    ['anthropic', () => new AnthropicProvider({ apiKey: 'k' })],
    ['gemini', () => new GeminiProvider({ apiKey: 'k' })],
  ] as const;
  for (const [name, make] of providers) {
    const before: number[] = [];
    const ours: number[] = [];
    let bytes = 0;
    for (let i = 0; i < SAMPLES; i++) {
      before.push(run(make(), TOOLS[name], (p, r) => JSON.stringify(p.buildBody(r))).micros);
      const kept = run(make(), TOOLS[name], (p, r) => p.bodyJson(r));
      ours.push(kept.micros);
      bytes = kept.bytes;
    }
    const a = median(before);
    const b = median(ours);
    console.log(`| ${name} | ${(bytes / 1024).toFixed(0)} KiB | ${a.toFixed(0)} µs | ${b.toFixed(0)} µs | ${(b / a).toFixed(2)}× |`);
  }
}

main();

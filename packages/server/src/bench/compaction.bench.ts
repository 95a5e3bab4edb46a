/**
 * Issue 15: request size over a long session. 500 turns (BENCH_COMPACTION_TURNS) over HTTP
 * against a booted server (SQLite) and a loopback FAKE Anthropic model that reports as input
 * tokens the o200k count of each request body it receives, so the window fills as it would
 * with a real provider. The context window is 32 000 tokens (ONECLAW_CONTEXT_WINDOW_TOKENS):
 * compaction at 27 200, 8 000 kept. Prints the request size every 50 turns, the largest, and
 * what the same conversation would cost uncompacted.
 *   pnpm --filter @oneclaw/server bench   (… && node dist/bench/compaction.bench.js)
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '@oneclaw/core';
import { countTextTokens } from '@oneclaw/tool-registry';
import { startFakeModelServer, type FakeModelServer, type FakeMessageReply } from '@oneclaw/model-providers/testing';
import { startTestServer } from '../testing/test-server';

const TURNS = Number(process.env.BENCH_COMPACTION_TURNS ?? 500);
const WINDOW = 32_000;
const MODEL_KEY = 'sk-ant-bench-compaction';
const FILLER = 'The user describes another step of the migration plan with names, dates and numbers. ';

const bodyTokens = (body: Readonly<Record<string, unknown>>): number => countTextTokens(JSON.stringify(body));

/** Always answers: the summary request and the turn's request each take one, so the queue is kept topped up. */
function reply(n: number): FakeMessageReply {
  return { text: `Answer ${n}: noted, ${FILLER.repeat(2)}`, usageFromRequest: (body) => ({ inputTokens: bodyTokens(body), outputTokens: 60 }) };
}

function isSummaryRequest(body: Readonly<Record<string, unknown>>): boolean {
  return body.tools === undefined && String(body.system ?? '').startsWith('You write the summary');
}

async function main(): Promise<void> {
  const model: FakeModelServer = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-bench-compact-'));
  const server = await startTestServer({
    dataDir,
    env: { ONECLAW_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: model.url, ONECLAW_CONTEXT_WINDOW_TOKENS: String(WINDOW), ONECLAW_LOG: 'silent' },
  });
  try {
    await server.api('POST', '/api/sessions', { sessionId: 'long' });
    const sizes: number[] = [];
    let uncompacted = 0;
    for (let turn = 1; turn <= TURNS; turn++) {
      while (model.pendingReplies < 2) model.enqueue(reply(turn));
      const text = `Step ${turn}. ${FILLER.repeat(8)}`;
      const answer = await server.api('POST', '/api/sessions/long/messages', { text });
      if (answer.body.reason !== 'completed') throw new Error(`Turn ${turn} ended ${answer.body.reason}: ${answer.body.detail}`);
      const request = model.requests.filter((r) => !isSummaryRequest(r.body as Record<string, unknown>)).at(-1);
      sizes.push(bodyTokens(request?.body as Record<string, unknown>));
      uncompacted += countTextTokens(text) + countTextTokens(String(answer.body.reply));
    }
    const events: RecordedEvent[] = (await server.api('GET', '/api/sessions/long/events')).body.events;
    const compactions = events.filter((e) => e.type === 'ConversationCompacted').length;
    const failures = events.filter((e) => e.type === 'CompactionFailed').length;

    console.log(`# @oneclaw/server: request size over ${TURNS} turns with compaction\n\n${new Date().toISOString()} · Node ${process.version} · window ${WINDOW} tokens\n`);
    console.log('| turn | request tokens (o200k of the body) |\n|---:|---:|');
    for (let turn = 50; turn <= TURNS; turn += 50) console.log(`| ${turn} | ${sizes[turn - 1]} |`);
    console.log(`\nLargest request: ${Math.max(...sizes)} tokens (85% of the window is ${0.85 * WINDOW}). Compactions: ${compactions}, failed: ${failures}.`);
    console.log(`The conversation's messages alone, uncompacted, would be about ${uncompacted} tokens by turn ${TURNS}.`);
    if (Math.max(...sizes) > WINDOW) throw new Error('A request exceeded the context window: compaction did not keep requests bounded.');
  } finally {
    await server.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

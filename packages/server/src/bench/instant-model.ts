/**
 * A loopback FAKE OpenAI-compatible model for benchmarks: answers at once and never runs out.
 * It speaks the real chat-completions SSE wire format (the testing fake's `openAiWire`) and
 * decides each reply from the request itself:
 *   last message from the user  -> one `get_current_time` tool call
 *   last message a tool result  -> the text "done"
 *   last message from the user containing INSTANT_TEXT_ONLY -> the text "done" at once (a text turn)
 *   no tools offered (the compactor's summary request) -> INSTANT_SUMMARY
 * and reports the request's input tokens from its size (`instantInputTokens`), as a real model
 * would, so long sessions are compacted as they would be in use.
 * It runs in its own worker thread, so its work is not billed to the server's event loop.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type FakeMessageReply, openAiWire } from '@oneclaw/model-providers/testing';
import { serverProcessEnv } from '../testing/server-process';

export const INSTANT_TOOL = 'get_current_time';
export const INSTANT_TEXT = 'done';
/** A user message holding this marker gets a text reply without a tool call (a one-request turn). */
export const INSTANT_TEXT_ONLY = '[text only]';

export interface InstantModelStats {
  readonly replies: number;
  /** Requests it could not answer as scripted (an unexpected last message, bad JSON, wrong path). */
  readonly refused: number;
  /** Total time from the request body being read to the response end, in ms (the fake's own work). */
  readonly workMs: number;
}

export interface InstantModel {
  /** Base URL for the OpenAI-compatible provider (`OPENAI_BASE_URL`). */
  readonly url: string;
  stats(): Promise<InstantModelStats>;
  close(): Promise<void>;
}

/** What the fake says a compaction summary is (the reply to a request that offers no tools). */
export const INSTANT_SUMMARY = 'Summary: the user sent numbered notes and asked for the time; the assistant answered each.';

/**
 * The input tokens the fake reports for a request of `requestBytes` bytes: about four bytes a
 * token, OpenAI's rule of thumb for English (o200k gives about five for the benchmarks' word
 * salad, so this errs towards compacting early). A real provider reports the request's real
 * size, and the server compacts a conversation from that figure (conversation-compactor.ts); a
 * fixed small number would let a benchmark's long sessions grow past any model's window.
 */
export function instantInputTokens(requestBytes: number): number {
  return Math.max(1, Math.ceil(requestBytes / 4));
}

/** The reply to one chat-completions request body of `requestBytes` bytes. */
export function instantReply(body: Record<string, unknown>, requestBytes: number): FakeMessageReply | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  const inputTokens = instantInputTokens(requestBytes);
  // The benchmarks' turns always offer tools (the core set); the compactor's summary request offers none.
  if (!Array.isArray(body.tools) || body.tools.length === 0) return { text: INSTANT_SUMMARY, usage: { inputTokens, outputTokens: 20 } };
  const last = messages[messages.length - 1] as { role?: unknown; content?: unknown };
  const role = last.role;
  if (role === 'user' && JSON.stringify(last.content ?? '').includes(INSTANT_TEXT_ONLY)) return { text: INSTANT_TEXT, usage: { inputTokens, outputTokens: 1 } };
  if (role === 'user') return { toolCalls: [{ name: INSTANT_TOOL, arguments: { timezone: 'UTC' } }], usage: { inputTokens, outputTokens: 5 } };
  if (role === 'tool') return { text: INSTANT_TEXT, usage: { inputTokens, outputTokens: 1 } };
  return undefined;
}

/** A request's body as JSON (empty when it is not: the caller refuses it) and its size in bytes. */
export function requestBody(chunks: readonly Buffer[]): { body: Record<string, unknown>; bytes: number } {
  const raw = Buffer.concat(chunks);
  try {
    return { body: JSON.parse(raw.toString('utf8')) as Record<string, unknown>, bytes: raw.length };
  } catch {
    return { body: {}, bytes: raw.length };
  }
}

interface Counters {
  replies: number;
  refused: number;
  workMs: number;
}

/** Starts the HTTP server in the calling thread. */
async function serve(counters: Counters): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void answer(req, res, counters).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, counters: Counters): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const started = performance.now();
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const { body, bytes } = requestBody(chunks);
  const route = openAiWire.route(req.method ?? '', url, body);
  const reply = route ? instantReply(body, bytes) : undefined;
  if (!route || !reply) {
    counters.refused += 1;
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify(openAiWire.errorBody(400, 'instant fake: expected a chat completion whose last message is a user message or a tool result')));
    return;
  }
  counters.replies += 1;
  const plan = openAiWire.stream(reply, { requestNumber: counters.replies, model: route.model, body });
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.end([...plan.content, ...plan.finish].join(''));
  counters.workMs += performance.now() - started;
}

/** Starts the fake in a worker thread and returns its URL. */
export async function startInstantModel(): Promise<InstantModel> {
  const worker = new Worker(__filename, { workerData: { role: 'instant-model' } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: { port: number }) => resolve(message.port));
  });
  const ask = <T>(type: string): Promise<T> =>
    new Promise<T>((resolve) => {
      worker.once('message', (message: T) => resolve(message));
      worker.postMessage({ type });
    });
  return {
    url: `http://127.0.0.1:${port}${openAiWire.basePath}`,
    stats: () => ask<InstantModelStats>('stats'),
    async close() {
      await ask('close');
      await worker.terminate();
    },
  };
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'instant-model') {
  const counters: Counters = { replies: 0, refused: 0, workMs: 0 };
  void serve(counters).then(({ port, close }) => {
    parentPort?.on('message', (message: { type: string }) => {
      if (message.type === 'stats') parentPort?.postMessage({ ...counters });
      if (message.type === 'close') void close().then(() => parentPort?.postMessage({ closed: true }));
    });
    parentPort?.postMessage({ port });
  });
}

/**
 * The environment of a real server process (`ServerProcess`) that talks to this instant model
 * as its OpenAI-compatible provider: no provider retries, no rate limit, warnings only in its
 * log, so the benchmarks measure the server and not its guards.
 */
export function instantModelServerEnv(options: { dataDir: string; apiToken: string; modelUrl: string }): Record<string, string> {
  return {
    ...serverProcessEnv({ dataDir: options.dataDir, token: options.apiToken }),
    ONECLAW_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-bench-instant-model-key',
    OPENAI_BASE_URL: options.modelUrl,
    ONECLAW_PROVIDER_MAX_RETRIES: '0',
    ONECLAW_RATE_LIMIT_PER_MINUTE: '1000000',
  };
}

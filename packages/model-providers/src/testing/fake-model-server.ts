/**
 * Loopback FAKE LLM servers for tests: they speak the real OpenAI chat-completions,
 * Anthropic Messages and Gemini streamGenerateContent SSE wire formats, with scripted replies.
 *
 *   const fake = await startFakeModelServer('anthropic', { apiKey: 'test-key' });
 *   fake.enqueue(fakeReply.toolCall('load_tool_group', { group_name: 'files' }), fakeReply.text('Done.'));
 *   const provider = createModelProvider({ kind: 'anthropic', apiKey: 'test-key', baseUrl: fake.url });
 *   ... fake.requests[0].body ...   // the parsed JSON each request sent, in order
 *   await fake.close();
 *
 * - One scripted reply per request, in order (`enqueue` appends, `script` replaces the queue).
 *   When the queue is empty the server answers HTTP 500 with an error saying the script ran
 *   out, so a test that sends one request too many fails loudly.
 * - With `apiKey` set, a request without the matching auth header (Bearer / x-api-key /
 *   x-goog-api-key) gets 401 and consumes no reply. Unknown paths get 404, also without
 *   consuming a reply. Every request is recorded, answered or not.
 * - A body the real API refuses gets its 400, also without consuming a reply (Anthropic:
 *   fake-model/anthropic-request-check.ts).
 * - The model-list endpoints answer too (OpenAI `GET /v1/models`, Anthropic `GET /v1/models`,
 *   Gemini `GET /v1beta/models`, real shapes and pagination) with `models` (or a default list);
 *   they check the key like the chat endpoint and consume no reply.
 * - Reply kinds: see `FakeReply` (text / tool calls / usage / thinking / thoughtSignature,
 *   an HTTP error, a malformed stream, `truncated` which closes before the finish, or `hang`
 *   which never finishes). `waitFor` (e.g. a `fakeGate()`) holds a reply until the test lets it go.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicWire } from './fake-model/anthropic-wire';
import { DEFAULT_FAKE_MODELS, modelListAnswer, type FakeModelInfo } from './fake-model/fake-model-list';
import type { FakeReply } from './fake-model/fake-reply';
import type { FakeWire } from './fake-model/fake-wire';
import { geminiWire } from './fake-model/gemini-wire';
import { openAiWire } from './fake-model/openai-wire';

export type FakeModelKind = 'openai' | 'anthropic' | 'gemini';

export interface FakeModelServerOptions {
  /** Expected key; requests without it get 401. Unset: no auth check (like a local Ollama). */
  readonly apiKey?: string;
  /** Replies to serve, as if passed to `enqueue`. */
  readonly replies?: readonly FakeReply[];
  /** What the model-list endpoint lists; a default list per provider otherwise. */
  readonly models?: readonly FakeModelInfo[];
}

export interface RecordedRequest {
  readonly method: string;
  /** Path and query, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`. */
  readonly path: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (the raw text when it was not JSON). */
  readonly body: unknown;
}

export interface FakeModelServer {
  readonly kind: FakeModelKind;
  /** Base URL to give the provider (`baseUrl`). */
  readonly url: string;
  /** Every request received, in order; a live array. */
  readonly requests: readonly RecordedRequest[];
  /** Replies not yet served. */
  readonly pendingReplies: number;
  /** Appends replies to the queue. */
  enqueue(...replies: FakeReply[]): void;
  /** Replaces the queue. */
  script(replies: readonly FakeReply[]): void;
  /** Ends open (hanging) responses and stops the server. */
  close(): Promise<void>;
}

const WIRES: Readonly<Record<FakeModelKind, FakeWire>> = { openai: openAiWire, anthropic: anthropicWire, gemini: geminiWire };

export async function startFakeModelServer(kind: FakeModelKind, options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const wire = WIRES[kind];
  const requests: RecordedRequest[] = [];
  let queue: FakeReply[] = [...(options.replies ?? [])];
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, wire.errorBody(500, `Fake ${kind} server failed: ${String(error)}`));
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: unknown = raw;
    try {
      body = JSON.parse(raw) as unknown;
    } catch {
      // Recorded as text; the provider under test sent something that is not JSON.
    }
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, headers: flatHeaders(req), body });
    const requestNumber = requests.length;
    const bodyRecord = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

    const modelList = modelListAnswer(kind, req.method ?? '', url, options.models ?? DEFAULT_FAKE_MODELS[kind]);
    if (modelList !== undefined) {
      if (options.apiKey !== undefined && !wire.authorized(req.headers, options.apiKey)) {
        sendJson(res, 401, wire.errorBody(401, `Fake ${kind} server: missing or wrong API key.`));
        return;
      }
      sendJson(res, 200, modelList);
      return;
    }
    const route = wire.route(req.method ?? '', url, bodyRecord);
    if (!route) {
      sendJson(res, 404, wire.errorBody(404, `Fake ${kind} server: no such endpoint ${req.method} ${url.pathname}.`));
      return;
    }
    if (options.apiKey !== undefined && !wire.authorized(req.headers, options.apiKey)) {
      sendJson(res, 401, wire.errorBody(401, `Fake ${kind} server: missing or wrong API key.`));
      return;
    }
    const refusal = wire.refusal?.(bodyRecord);
    if (refusal !== undefined) {
      // Like the real API, and without taking a scripted reply: the request never reached a model.
      sendJson(res, 400, wire.errorBody(400, refusal));
      return;
    }
    const reply = queue.shift();
    if (!reply) {
      sendJson(res, 500, wire.errorBody(500, `Fake ${kind} server: the script ran out; request #${requestNumber} has no scripted reply. Enqueue one more reply.`));
      return;
    }
    if ('error' in reply) {
      const { status, body: errorBody, headers, message } = reply.error;
      sendJson(res, status, errorBody ?? wire.errorBody(status, message ?? `Fake ${kind} error ${status}.`), headers);
      return;
    }
    const context = { requestNumber, model: route.model, body: bodyRecord };
    if ('waitFor' in reply && reply.waitFor) await reply.waitFor;
    startSse(res);
    if ('malformed' in reply) {
      for (const frame of wire.malformed(context)) res.write(frame);
      res.end();
      return;
    }
    const plan = wire.stream(reply.usageFromRequest ? { ...reply, usage: reply.usageFromRequest(bodyRecord) } : reply, context);
    for (const frame of plan.content) res.write(frame);
    // A hanging reply stays open until the client gives up or the server closes.
    if (reply.hang) return;
    if (reply.truncated) {
      res.end();
      return;
    }
    for (const frame of plan.finish) res.write(frame);
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    kind,
    url: `http://127.0.0.1:${port}${wire.basePath}`,
    requests,
    get pendingReplies() {
      return queue.length;
    },
    enqueue(...replies) {
      queue.push(...replies);
    },
    script(replies) {
      queue = [...replies];
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

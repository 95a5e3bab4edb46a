import { afterEach, describe, expect, it } from '@jest/globals';
import { expectProviderError } from '../testing/expect-provider-error';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { AnthropicProvider } from '../anthropic/anthropic-provider';
import { createModelProvider } from '../create-model-provider';
import type { ModelRequest } from '../model-provider';
import { OpenAiCompatibleProvider } from '../openai-compatible/openai-compatible-provider';
import { ProviderError } from './provider-error';

const KEY = 'sk-transport-SECRET-0123456789';
const FAST = { maxRetries: 2, retryDelayCapMs: 1, retryBaseDelayMs: 1 };

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A hand-written FAKE server for failures the scripted fakes do not model (dropped sockets, odd streams). */
async function startRawFake(handlers: Handler[]): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const handler = handlers[hits++];
    req.resume();
    req.on('end', () => (handler ? handler(req, res) : res.writeHead(500).end('{"error":{"message":"raw fake ran out"}}')));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const sse = (res: ServerResponse): ServerResponse => res.writeHead(200, { 'content-type': 'text/event-stream' });
const openAiChunk = (delta: unknown, finish: string | null = null): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const openAiText =
  (text: string): Handler =>
  (_req, res) =>
    sse(res).end(`${openAiChunk({ content: text })}${openAiChunk({}, 'stop')}data: [DONE]\n\n`);
const dropSocket: Handler = (req) => req.socket.destroy();

const REQUEST: ModelRequest = { model: 'm', system: '', messages: [{ role: 'user', text: 'hi' }], tools: { provider: 'openai', tools: [] } };

const providerError = (promise: Promise<unknown>): Promise<ProviderError> => expectProviderError(promise, KEY);

describe('S2 provider transport (retries, connection failures, cancellation) against loopback fake servers', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((close) => close()));
  });
  async function raw(handlers: Handler[]) {
    const server = await startRawFake(handlers);
    cleanups.push(server.close);
    return server;
  }

  it('reports provider_unavailable after bounded retries when nothing listens (connection refused)', async () => {
    const server = await startRawFake([]);
    await server.close();
    const provider = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: server.url, ...FAST });
    const error = await providerError(provider.complete(REQUEST));
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.details).toMatchObject({ attempts: 3 });
  });

  it('retries a connection dropped before any text, then succeeds', async () => {
    const server = await raw([dropSocket, openAiText('second try')]);
    const provider = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: server.url, ...FAST });
    expect((await provider.complete(REQUEST)).text).toBe('second try');
    expect(server.hits()).toBe(2);
  });

  it('does not retry once text was streamed: the connection drop becomes provider_unavailable', async () => {
    const server = await raw([
      (_req, res) => {
        sse(res).write(openAiChunk({ content: 'half an ans' }));
        setImmediate(() => res.socket?.destroy());
      },
      openAiText('must not be requested'),
    ]);
    const provider = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: server.url, ...FAST });
    const deltas: string[] = [];
    const error = await providerError(provider.complete(REQUEST, { onTextDelta: (t) => deltas.push(t) }));
    expect(error.code).toBe('provider_unavailable');
    expect(deltas).toEqual(['half an ans']);
    expect(server.hits()).toBe(1);
  });

  it('S6 does not retry once reasoning was streamed either, and a throwing retry observer does not stop a retry', async () => {
    const server = await raw([
      (_req, res) => {
        sse(res).write(openAiChunk({ reasoning_content: 'Thinking about it' }));
        setImmediate(() => res.socket?.destroy());
      },
      openAiText('must not be requested'),
    ]);
    const provider = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: server.url, ...FAST });
    const reasoning: string[] = [];
    const error = await providerError(provider.complete(REQUEST, { onReasoningDelta: (t) => reasoning.push(t) }));
    expect(error.code).toBe('provider_unavailable');
    expect(reasoning).toEqual(['Thinking about it']);
    expect(server.hits()).toBe(1);

    const flaky = await raw([dropSocket, openAiText('second try')]);
    const retried = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: flaky.url, ...FAST });
    const reply = await retried.complete(REQUEST, {
      onRetry: () => {
        throw new Error('observer bug');
      },
    });
    expect(reply.text).toBe('second try');
  });

  it('retries an Anthropic overloaded error event sent before any text', async () => {
    const server = await raw([
      (_req, res) => sse(res).end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`),
      (_req, res) =>
        sse(res).end(
          [
            { type: 'message_start', message: { usage: { input_tokens: 3, output_tokens: 1 } } },
            { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'fine now' } },
            { type: 'content_block_stop', index: 0 },
            { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
            { type: 'message_stop' },
          ]
            .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
            .join(''),
        ),
    ]);
    const provider = new AnthropicProvider({ apiKey: KEY, baseUrl: server.url, ...FAST });
    const reply = await provider.complete({ ...REQUEST, tools: { provider: 'anthropic', tools: [] } });
    expect(reply).toEqual({ text: 'fine now', toolCalls: [], usage: { inputTokens: 3, outputTokens: 2 }, stopReason: 'end_turn' });
    expect(server.hits()).toBe(2);
  });

  it('keeps unparseable OpenAI tool arguments as the raw string and invents ids a local server left out', async () => {
    const server = await raw([
      (_req, res) =>
        sse(res).end(`${openAiChunk({ tool_calls: [{ index: 0, function: { name: 'read_file', arguments: '{"path": "a' } }] })}${openAiChunk({}, 'tool_calls')}data: [DONE]\n\n`),
    ]);
    const provider = new OpenAiCompatibleProvider({ baseUrl: server.url, ...FAST });
    const reply = await provider.complete(REQUEST);
    expect(reply.toolCalls).toEqual([{ callId: 'call_0', toolName: 'read_file', arguments: '{"path": "a' }]);
  });

  it('joins a character whose UTF-8 bytes arrive in two reads (the second part is sent only after the first was read)', async () => {
    let sendRest: () => void = () => {};
    const server = await raw([
      (_req, res) => {
        const bytes = Buffer.from(`${openAiChunk({ content: 'ok ' })}${openAiChunk({ content: 'é😀€' })}${openAiChunk({}, 'stop')}data: [DONE]\n\n`, 'utf8');
        // Cut inside the emoji (4 bytes): the first read ends with half of it.
        const cut = bytes.indexOf(Buffer.from('😀', 'utf8')) + 2;
        sse(res).write(bytes.subarray(0, cut));
        sendRest = () => res.end(bytes.subarray(cut));
      },
    ]);
    const provider = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: server.url, ...FAST });
    const deltas: string[] = [];
    const reply = await provider.complete(REQUEST, {
      onTextDelta: (text) => {
        deltas.push(text);
        if (text === 'ok ') sendRest();
      },
    });
    expect(deltas).toEqual(['ok ', 'é😀€']);
    expect(reply.text).toBe('ok é😀€');
  });

  it('a reply that turns unreadable mid-stream fails with provider_bad_response at once and closes the connection the server holds open', async () => {
    let closed!: Promise<void>;
    const server = await raw([
      (_req, res) => {
        closed = new Promise((resolve) => res.on('close', () => resolve()));
        // Never ended by the server: only the client can close it.
        sse(res).write(`${openAiChunk({ content: 'fine so far ' })}data: {not json\n\n`);
      },
    ]);
    const provider = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: server.url, ...FAST });
    const error = await providerError(provider.complete(REQUEST));
    expect(error.code).toBe('provider_bad_response');
    await closed;
    expect(server.hits()).toBe(1);
  });

  it('fails with provider_cancelled without a request when the signal is already aborted', async () => {
    const server = await raw([openAiText('unused')]);
    const provider = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: server.url, ...FAST });
    const error = await providerError(provider.complete({ ...REQUEST, signal: AbortSignal.abort() }));
    expect(error.code).toBe('provider_cancelled');
    expect(server.hits()).toBe(0);
  });

  it('stops waiting between retries when cancelled', async () => {
    const controller = new AbortController();
    const server = await raw([
      (_req, res) => {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
        controller.abort();
      },
      openAiText('unused'),
    ]);
    // A long retry wait proves the abort ends it rather than the wait running out.
    const provider = new OpenAiCompatibleProvider({ apiKey: KEY, baseUrl: server.url, maxRetries: 2, retryDelayCapMs: 600_000, retryBaseDelayMs: 600_000 });
    const error = await providerError(provider.complete({ ...REQUEST, signal: controller.signal }));
    expect(error.code).toBe('provider_cancelled');
    expect(server.hits()).toBe(1);
  });

  it('rejects a tool payload formatted for another provider with provider_bad_request', async () => {
    const provider = createModelProvider({ kind: 'gemini', apiKey: KEY, baseUrl: 'http://127.0.0.1:9', ...FAST });
    const error = await providerError(provider.complete(REQUEST));
    expect(error.code).toBe('provider_bad_request');
  });

  it('createModelProvider builds each kind', () => {
    expect(createModelProvider({ kind: 'openai' }).name).toBe('openai');
    expect(createModelProvider({ kind: 'anthropic', apiKey: KEY }).name).toBe('anthropic');
    expect(createModelProvider({ kind: 'gemini', apiKey: KEY }).name).toBe('gemini');
  });
});

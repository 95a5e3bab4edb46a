import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { openAiWire } from '@oneclaw/model-providers/testing';
import { instantReply, requestBody } from '../bench/instant-model';

/**
 * A loopback FAKE OpenAI-compatible model for tests with many server processes and many
 * concurrent sessions: a scripted queue cannot serve them (the order of requests across
 * sessions is not fixed), so each reply is decided from the request itself, as the bench's
 * instant model does (a user message -> one `get_current_time` call; a tool result -> "done").
 * A user message containing `HOLD` is held (no byte sent) until `release()`, so a test can keep
 * a turn in progress for as long as it needs; `CALL <tool> <json arguments>` makes that tool
 * call instead (to schedule a task through the chat). Speaks the real chat-completions SSE wire.
 */
export interface ReplicaModel {
  /** Base URL for the openai provider (`OPENAI_BASE_URL`). */
  readonly url: string;
  /** Requests answered so far. */
  replies(): number;
  /** Requests being held now. */
  heldCount(): number;
  /** Lets every request held now go. */
  release(): void;
  close(): Promise<void>;
}

export const REPLICA_MODEL_KEY = 'sk-replica-fake-model-key-0000';

export async function startReplicaModel(): Promise<ReplicaModel> {
  let replies = 0;
  const holding: (() => void)[] = [];
  const sockets = new Set<Socket>();

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { body, bytes } = requestBody(chunks);
    const route = openAiWire.route(req.method ?? '', new URL(req.url ?? '/', 'http://fake.invalid'), body);
    let reply = route && openAiWire.authorized(req.headers as Record<string, string>, REPLICA_MODEL_KEY) ? instantReply(body, bytes) : undefined;
    const messages = (body.messages ?? []) as { role?: string; content?: unknown }[];
    const last = messages[messages.length - 1];
    const userText = last?.role === 'user' ? textOf(last.content) : '';
    const call = /^CALL (\w+) (\{.*\})$/s.exec(userText.trim());
    if (reply && call) reply = { toolCalls: [{ name: call[1] as string, arguments: JSON.parse(call[2] as string) as object }] };
    if (!route || !reply) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(openAiWire.errorBody(400, 'replica fake: expected an authorized chat completion ending with a user message or a tool result')));
      return;
    }
    if (userText.includes('HOLD')) {
      await new Promise<void>((resolve) => holding.push(resolve));
    }
    replies += 1;
    const plan = openAiWire.stream(reply, { requestNumber: replies, model: route.model, body });
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.end([...plan.content, ...plan.finish].join(''));
  };

  const server = createServer((req, res) => {
    void answer(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const release = () => {
    for (const go of holding.splice(0)) go();
  };
  return {
    url: `http://127.0.0.1:${port}${openAiWire.basePath}`,
    replies: () => replies,
    heldCount: () => holding.length,
    release,
    close() {
      release();
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The text of a chat-completions message content (a string, or parts with text). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('');
  return '';
}

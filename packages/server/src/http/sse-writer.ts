import type { TurnStreamEventName, TurnStreamEvents } from '@oneclaw/api-contract';
import type { ServerResponse } from 'node:http';

const HEARTBEAT_MS = 15_000;

/**
 * A Server-Sent Events response. Opened lazily, so errors found before the first event (unknown
 * session, a turn already running) still answer with their HTTP status and problem+json.
 */
export class SseWriter {
  private heartbeat: NodeJS.Timeout | undefined;
  private opened = false;

  constructor(private readonly response: ServerResponse) {}

  get isOpen(): boolean {
    return this.opened;
  }

  /** One event of a turn's stream, with the data the contract gives it (`data.type` is `event` for updates). */
  send<E extends TurnStreamEventName>(event: E, data: TurnStreamEvents[E]): void {
    if (!this.opened) this.open();
    if (this.response.writableEnded) return;
    this.response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (!this.response.writableEnded) this.response.end();
  }

  private open(): void {
    this.opened = true;
    this.response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Stops nginx-style proxies from buffering the stream.
      'x-accel-buffering': 'no',
    });
    this.response.flushHeaders();
    // Comments keep idle connections open through proxies while a tool runs.
    this.heartbeat = setInterval(() => this.response.write(': ping\n\n'), HEARTBEAT_MS);
    this.heartbeat.unref();
  }
}

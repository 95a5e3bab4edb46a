import { parseSse, type SseEvent, type TestServer } from './test-server';

/**
 * An SSE response read as it arrives, for tests that act in the middle of a turn (cancel once
 * some text has streamed) or that check a stream is not held back (compression). `server.stream`
 * only resolves when the stream ends.
 */
export interface LiveSse {
  readonly headers: Headers;
  /** Reads until `check` holds for the events so far; fails if the stream ends first. */
  until(check: (events: SseEvent[]) => boolean): Promise<SseEvent[]>;
  /** Reads to the end of the stream and returns every event. */
  end(): Promise<SseEvent[]>;
  /** Drops the connection, as a closed browser tab does (the server cancels the turn). */
  disconnect(): void;
}

export async function openLiveSse(server: TestServer, route: string, body: unknown, headers: Record<string, string> = {}): Promise<LiveSse> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}${route}`, {
    signal: controller.signal,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${server.config.apiToken}`, ...headers },
    body: JSON.stringify(body),
  });
  if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    throw new Error(`expected an event stream, got ${response.status} ${response.headers.get('content-type') ?? ''}: ${await response.text()}`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  // Only whole events (ended by a blank line) count; a half-received one waits for its end.
  const complete = () => parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2));
  const readOnce = async () => {
    const chunk = await reader.read();
    if (chunk.done) done = true;
    else text += decoder.decode(chunk.value, { stream: true });
  };
  return {
    headers: response.headers,
    async until(check) {
      while (!check(complete())) {
        if (done) throw new Error(`the stream ended before the condition held; events: ${JSON.stringify(complete().map((e) => e.event))}`);
        await readOnce();
      }
      return complete();
    },
    async end() {
      while (!done) await readOnce();
      return parseSse(text);
    },
    disconnect() {
      controller.abort();
    },
  };
}

/** The assistant text the events carried so far (the `text_delta` pieces joined). */
export function streamedText(events: readonly SseEvent[]): string {
  return events
    .filter((e) => e.event === 'text_delta')
    .map((e) => (e.data as { text: string }).text)
    .join('');
}

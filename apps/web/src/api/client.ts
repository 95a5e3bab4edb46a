import { createParser } from 'eventsource-parser';
import { ApiError } from './api-error';
import type { Connection } from './connection';

/**
 * One Server-Sent Event of a streamed turn (docs/api.md, "Sending a message"), as it arrived:
 * `data` is the parsed JSON (or the text, if it was not JSON), to be checked where it is read
 * (transcript.ts reads it by the names of @oneclaw/api-contract's TurnStreamEvents).
 */
export interface StreamEvent {
  readonly event: string;
  readonly data: unknown;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly headers?: Record<string, string>;
}

/**
 * The HTTP API as the UI uses it: JSON in and out, the bearer token on every request, problem
 * answers turned into `ApiError`, and a 401 reported once through `onUnauthorized` (the app then
 * asks for the token again).
 */
export class ApiClient {
  constructor(
    readonly connection: Connection,
    private readonly onUnauthorized: () => void = () => {},
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
  ) {}

  get<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>('POST', path, body ?? {}, options);
  }
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>('PUT', path, body ?? {}, options);
  }
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>('PATCH', path, body ?? {}, options);
  }
  delete<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('DELETE', path, undefined, options);
  }

  async request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, body, { accept: 'application/json', ...options.headers }, options.signal);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * POSTs and reads the answer as Server-Sent Events, calling `onEvent` for each, until the
   * stream ends. Errors found before the stream opens reject with their `ApiError`; an `error`
   * event inside the stream is passed to `onEvent` like any other. Aborting `signal` closes the
   * connection, which cancels the turn on the server.
   */
  async stream(path: string, body: unknown, onEvent: (event: StreamEvent) => void, options: RequestOptions = {}): Promise<void> {
    const response = await this.send('POST', path, body, { accept: 'text/event-stream', ...options.headers }, options.signal);
    if (!response.body) throw new ApiError(response.status, 'empty_stream', 'The server sent no stream. Reload the page and try again.');
    const parser = createParser({
      onEvent: (message) => {
        let data: unknown = message.data;
        try {
          data = JSON.parse(message.data);
        } catch {
          // not JSON: keep the text
        }
        onEvent({ event: message.event ?? 'message', data });
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  }

  /**
   * POSTs raw bytes (a file upload: POST /api/attachments) with their own Content-Type and reads
   * the JSON answer. Problems reject with their `ApiError` like every other request.
   */
  async postBytes<T>(path: string, body: Blob, contentType: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send('POST', path, new RawBody(body, contentType), { accept: 'application/json', ...options.headers }, options.signal);
    return (await response.json()) as T;
  }

  /** GETs a file with the token (an <img> or a link could not send it). */
  async getBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
    const response = await this.send('GET', path, undefined, { ...options.headers }, options.signal);
    return response.blob();
  }

  /** An absolute URL for `path` on the API's server (for links such as the OpenAPI page). */
  url(path: string): string {
    return `${this.connection.apiBase}${path}`;
  }

  private async send(method: string, path: string, body: unknown, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchImpl(this.url(path), {
        method,
        headers: {
          ...headers,
          authorization: `Bearer ${this.connection.token}`,
          ...(body === undefined ? {} : { 'content-type': body instanceof RawBody ? body.contentType : 'application/json' }),
        },
        ...(body === undefined ? {} : { body: body instanceof RawBody ? body.blob : JSON.stringify(body) }),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error;
      throw ApiError.network(error);
    }
    if (response.ok) return response;
    const problem = await ApiError.fromResponse(response);
    if (response.status === 401) this.onUnauthorized();
    throw problem;
  }
}

/** A body sent as it is (not as JSON), with its own Content-Type. */
class RawBody {
  constructor(
    readonly blob: Blob,
    readonly contentType: string,
  ) {}
}

/** `encodeURIComponent` for path segments (session ids, group and tool names). */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

import { setTimeout as delay } from 'node:timers/promises';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { request } from 'undici';
import type { ProviderName } from '@oneclaw/tool-registry';
import { errorFromHttpStatus } from './http-failure';
import type { ProviderRetryNotice } from '../model-provider';
import { PROVIDER_LABELS, PROVIDER_SETTINGS_HINT, ProviderError, RETRYABLE_PROVIDER_CODES, redactSecret, type ProviderErrorCode } from './provider-error';

/**
 * The HTTP, retry and SSE plumbing shared by the three providers: each provider only builds
 * its request body and decodes its own events.
 */

/** Tuning shared by every provider; tests shrink the delays so retries cost milliseconds. */
export interface ProviderTransportOptions {
  /** Extra attempts after a 429, 5xx or connection failure (only while no text was streamed). Default 2. */
  readonly maxRetries?: number;
  /**
   * How long the provider may stay silent (no headers, no bytes) before the attempt fails with
   * `provider_timeout`. An idle timeout rather than a total one, so long replies that keep
   * streaming are never cut. Default 300 s: reasoning models may think for minutes before
   * their first byte.
   */
  readonly timeoutMs?: number;
  /** Upper bound of one wait between attempts, also when `retry-after` asks for more. Default 20 s. */
  readonly retryDelayCapMs?: number;
  /** First backoff when the provider gives no `retry-after`; doubles per attempt. Default 1 s. */
  readonly retryBaseDelayMs?: number;
}

export interface ResolvedTransportOptions {
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly retryDelayCapMs: number;
  readonly retryBaseDelayMs: number;
}

export function resolveTransportOptions(options: ProviderTransportOptions): ResolvedTransportOptions {
  return {
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 2)),
    timeoutMs: options.timeoutMs ?? 300_000,
    retryDelayCapMs: Math.max(0, options.retryDelayCapMs ?? 20_000),
    retryBaseDelayMs: Math.max(0, options.retryBaseDelayMs ?? 1_000),
  };
}

/** Decodes one attempt's events; a fresh one per attempt so a retry never sees a partial reply. */
export interface StreamDecoder<T> {
  /** Throws a `ProviderError` for an error event or unreadable data. */
  onEvent(event: EventSourceMessage): void;
  /** Called at the end of the body: the whole reply, or `provider_bad_response` when the stream never finished. */
  finish(): T;
}

export interface StreamingCall<T> {
  readonly provider: ProviderName;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The request body as JSON text (a provider may build it from cached parts, openai-compatible-provider.ts). */
  readonly body: string;
  /** Removed from every error text; never sent anywhere but the auth header. */
  readonly secret?: string;
  readonly signal?: AbortSignal;
  readonly onTextDelta?: (text: string) => void;
  readonly onReasoningDelta?: (text: string) => void;
  readonly onRetry?: (notice: ProviderRetryNotice) => void;
  readonly createDecoder: (emitText: (text: string) => void, emitReasoning: (text: string) => void) => StreamDecoder<T>;
}

/** Retries 429 / 5xx / connection failures, but never once text or reasoning reached the caller: it cannot be taken back. */
export async function streamWithRetries<T>(call: StreamingCall<T>, options: ResolvedTransportOptions): Promise<T> {
  const progress = { emitted: false };
  for (let attempt = 0; ; attempt++) {
    if (call.signal?.aborted) throw cancelled(call.provider);
    try {
      return await streamOnce(call, options, progress);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const canRetry = RETRYABLE_PROVIDER_CODES.has(error.code) && !progress.emitted && attempt < options.maxRetries;
      if (!canRetry) {
        throw new ProviderError(error.code as ProviderErrorCode, error.message, { ...error.details, attempts: attempt + 1 });
      }
      const retryAfterMs = typeof error.details.retryAfterMs === 'number' ? error.details.retryAfterMs : undefined;
      const wait = Math.min(options.retryDelayCapMs, retryAfterMs ?? options.retryBaseDelayMs * 2 ** attempt);
      notifyRetry(call, {
        attempt: attempt + 2,
        maxAttempts: options.maxRetries + 1,
        waitMs: wait,
        reason: error.code,
        ...(typeof error.details.status === 'number' ? { status: error.details.status } : {}),
      });
      try {
        await delay(wait, undefined, call.signal ? { signal: call.signal } : {});
      } catch {
        throw cancelled(call.provider);
      }
    }
  }
}

/** A throwing observer must not turn a retry into a failure: the notice is only information. */
function notifyRetry(call: StreamingCall<unknown>, notice: ProviderRetryNotice): void {
  try {
    call.onRetry?.(notice);
  } catch {
    // ignored on purpose
  }
}

async function streamOnce<T>(call: StreamingCall<T>, options: ResolvedTransportOptions, progress: { emitted: boolean }): Promise<T> {
  const controller = new AbortController();
  const onCallerAbort = (): void => controller.abort();
  call.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const restartIdleTimer = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
  };
  // An exception thrown by the caller's own delta handler is theirs, not a provider failure.
  let handlerError: { error: unknown } | undefined;
  const emitTo =
    (handler: ((text: string) => void) | undefined) =>
    (text: string): void => {
      if (text === '') return;
      progress.emitted = true;
      try {
        handler?.(text);
      } catch (error) {
        handlerError ??= { error };
        controller.abort();
      }
    };
  const emitText = emitTo(call.onTextDelta);
  const emitReasoning = emitTo(call.onReasoningDelta);
  restartIdleTimer();
  // Set once the body was read to its end: the connection then goes back to the pool as it is.
  let complete = false;
  try {
    // undici's request(), not fetch(): reading a Node stream instead of WHATWG streams and a
    // decoder stream costs a loopback model call about a quarter of the CPU (benchmarks.md, F5).
    // The idle timer above is the only timeout: undici's own (300 s each) are turned off.
    const response = await request(call.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...call.headers },
      body: call.body,
      signal: controller.signal,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    restartIdleTimer();
    if (response.statusCode < 200 || response.statusCode > 299) {
      const bodyText = await response.body.text();
      complete = true;
      throw errorFromHttpStatus({ provider: call.provider, status: response.statusCode, bodyText, headers: headersOf(response.headers), secret: call.secret });
    }
    const decoder = call.createDecoder(emitText, emitReasoning);
    let decodeError: unknown;
    const parser = createParser({
      onEvent: (event) => {
        if (decodeError !== undefined) return;
        try {
          decoder.onEvent(event);
        } catch (error) {
          decodeError = error;
        }
      },
    });
    // `stream: true` keeps a multi-byte character split across two chunks for the next one.
    const utf8 = new TextDecoder();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      restartIdleTimer();
      parser.feed(utf8.decode(chunk, { stream: true }));
      if (handlerError) throw handlerError.error;
      if (decodeError !== undefined) throw decodeError;
    }
    complete = true;
    parser.feed(utf8.decode());
    // A last event without its blank line still counts: servers that close right after it are common.
    parser.reset({ consume: true });
    if (handlerError) throw handlerError.error;
    if (decodeError !== undefined) throw decodeError;
    return decoder.finish();
  } catch (error) {
    if (handlerError) throw handlerError.error;
    if (call.signal?.aborted) throw cancelled(call.provider);
    if (timedOut) {
      const label = PROVIDER_LABELS[call.provider];
      throw new ProviderError('provider_timeout', `${label} sent nothing for ${options.timeoutMs} ms, so the request was abandoned; retry, or raise the provider timeout.`, {
        provider: call.provider,
        timeoutMs: options.timeoutMs,
      });
    }
    if (error instanceof ProviderError) throw error;
    throw connectionFailure(call, error);
  } finally {
    clearTimeout(timer);
    call.signal?.removeEventListener('abort', onCallerAbort);
    // Closes the connection when reading stopped early (a decode error, the caller's handler).
    // Not after a complete read: the connection is reusable then, and an abort costs an
    // exception object per reply for nothing.
    if (!complete) controller.abort();
  }
}

/** undici's header record as the fetch `Headers` the error mapping reads (retry-after); only on a failure. */
function headersOf(raw: Readonly<Record<string, string | string[] | undefined>>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** Parses one event's JSON data; unreadable data means the stream is corrupt, not that the server is down. */
export function parseEventData(provider: ProviderName, event: EventSourceMessage): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    throw badResponse(provider, `an event${event.event ? ` (${event.event})` : ''} held data that is not JSON`);
  }
}

export function badResponse(provider: ProviderName, what: string): ProviderError {
  return new ProviderError(
    'provider_bad_response',
    `${PROVIDER_LABELS[provider]} sent a reply that could not be read: ${what}. Retry; if it persists, check that the base URL points at a compatible server.`,
    {
      provider,
    },
  );
}

function cancelled(provider: ProviderName): ProviderError {
  return new ProviderError('provider_cancelled', `The ${PROVIDER_LABELS[provider]} request was cancelled.`, { provider });
}

function connectionFailure(call: StreamingCall<unknown>, error: unknown): ProviderError {
  const label = PROVIDER_LABELS[call.provider];
  const cause = describeCause(error);
  // Only the origin: a path or query string could carry something sensitive.
  let origin = 'the configured base URL';
  try {
    origin = new URL(call.url).origin;
  } catch {
    // keep the generic wording
  }
  const reason = redactSecret(cause, call.secret);
  return new ProviderError(
    'provider_unavailable',
    `Could not reach ${label} at ${origin} (${reason}); check that it is running and reachable, then retry. ${PROVIDER_SETTINGS_HINT[call.provider]}.`,
    {
      provider: call.provider,
      cause: reason,
    },
  );
}

function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  // Duck-typed: undici's errors may come from another realm (e.g. under jest), where instanceof fails.
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (typeof code === 'string') parts.push(text ? `${code}: ${text}` : code);
    else if (text) parts.push(text);
    current = cause;
  }
  return parts.length > 0 ? parts.join(' <- ') : String(error);
}

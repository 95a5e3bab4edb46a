import type { ProviderName } from '@oneclaw/tool-registry';
import { contextOverflowOf, type ContextOverflow } from './context-too-long';
import { PROVIDER_LABELS, PROVIDER_SETTINGS_HINT, ProviderError, redactSecret } from './provider-error';

/** Longest provider error text kept in a message: enough to read the reason, not a whole HTML error page. */
const MAX_PROVIDER_MESSAGE_CHARS = 500;

/**
 * Parses `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date) into milliseconds;
 * undefined when absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The human-readable reason inside a provider error body. The three APIs use
 * `{error:{message}}` (OpenAI, Gemini), `{type:'error', error:{message}}` (Anthropic) and
 * Gemini sometimes wraps it in an array; anything else is shown as trimmed text.
 */
export function extractProviderMessage(bodyText: string): string {
  let message = bodyText.trim();
  try {
    let parsed: unknown = JSON.parse(bodyText);
    if (Array.isArray(parsed)) parsed = parsed[0];
    const fromJson = messageOf(parsed);
    if (fromJson !== undefined) message = fromJson;
  } catch {
    // Not JSON: the raw text is the best description available.
  }
  return message.length > MAX_PROVIDER_MESSAGE_CHARS ? `${message.slice(0, MAX_PROVIDER_MESSAGE_CHARS)}...` : message;
}

function messageOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const inner = error as Record<string, unknown>;
    // The type (Anthropic `overloaded_error`, Gemini `RESOURCE_EXHAUSTED`) often says more than the text.
    const kind = typeof inner.type === 'string' ? inner.type : typeof inner.status === 'string' ? inner.status : undefined;
    if (typeof inner.message === 'string') return kind ? `${kind}: ${inner.message}` : inner.message;
  }
  return typeof record.message === 'string' ? record.message : undefined;
}

export interface HttpFailure {
  readonly provider: ProviderName;
  readonly status: number;
  readonly bodyText: string;
  readonly headers: Headers;
  readonly secret?: string;
}

/** Maps a non-2xx answer to its stable code, with the provider's reason (key removed) and what to do. */
export function errorFromHttpStatus(failure: HttpFailure): ProviderError {
  const { provider, status } = failure;
  const label = PROVIDER_LABELS[provider];
  const reason = redactSecret(extractProviderMessage(failure.bodyText), failure.secret);
  const said = reason ? `: ${reason}` : '';
  const details = { provider, status, providerMessage: reason };
  // Gemini answers a wrong key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID), not 401.
  const geminiBadKey = provider === 'gemini' && status === 400 && /API_KEY_INVALID|API key not valid/i.test(failure.bodyText);
  if (status === 401 || status === 403 || geminiBadKey) {
    return new ProviderError('provider_auth_failed', `${label} refused the credentials (HTTP ${status}${said}). ${PROVIDER_SETTINGS_HINT[provider]}.`, details);
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfterMs(failure.headers);
    return new ProviderError('provider_rate_limited', `${label} rate limit or quota reached (HTTP 429${said}); wait and retry, or lower the request rate.`, {
      ...details,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (status >= 500) {
    return new ProviderError('provider_unavailable', `${label} is unavailable (HTTP ${status}${said}); wait and retry.`, details);
  }
  const overflow = status === 400 ? contextOverflowOf(failure.bodyText) : undefined;
  if (overflow) return contextTooLong(provider, `HTTP 400${said}`, { ...details, ...overflow });
  if (status >= 400) {
    return new ProviderError('provider_bad_request', `${label} rejected the request (HTTP ${status}${said}). Check the model name and the request settings.`, details);
  }
  return new ProviderError('provider_bad_response', `${label} answered with unexpected HTTP ${status}${said}.`, details);
}

/** Maps an `error` object sent inside an otherwise successful stream (e.g. Anthropic `overloaded_error`). */
export function errorFromStreamError(provider: ProviderName, error: unknown, secret: string | undefined): ProviderError {
  const label = PROVIDER_LABELS[provider];
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const type = String(record.type ?? record.status ?? record.code ?? 'error');
  const reason = redactSecret(typeof record.message === 'string' ? record.message : JSON.stringify(error ?? null).slice(0, MAX_PROVIDER_MESSAGE_CHARS), secret);
  const details = { provider, providerErrorType: type, providerMessage: reason };
  const kind = type.toLowerCase();
  if (kind.includes('rate_limit') || kind.includes('resource_exhausted') || kind === '429') {
    return new ProviderError('provider_rate_limited', `${label} rate limit reached during the reply (${type}: ${reason}); wait and retry.`, details);
  }
  if (kind.includes('auth') || kind.includes('permission') || kind === '401' || kind === '403') {
    return new ProviderError('provider_auth_failed', `${label} refused the credentials during the reply (${type}: ${reason}). ${PROVIDER_SETTINGS_HINT[provider]}.`, details);
  }
  const overflow = contextOverflowOf(`${JSON.stringify(error ?? null)}`);
  if (overflow) return contextTooLong(provider, `${type}: ${reason}`, { ...details, ...overflow });
  if (kind.includes('invalid_request') || kind.includes('invalid_argument') || kind === '400') {
    return new ProviderError('provider_bad_request', `${label} rejected the request (${type}: ${reason}). Check the model name and the request settings.`, details);
  }
  // Overloaded, api_error, internal, unknown: the server failed mid-reply.
  return new ProviderError('provider_unavailable', `${label} failed during the reply (${type}: ${reason}); wait and retry.`, details);
}

/** The prompt does not fit the model: the agent loop compacts and retries once (turn-runner). */
function contextTooLong(provider: ProviderName, said: string, details: Readonly<Record<string, unknown>> & ContextOverflow): ProviderError {
  const numbers = details.limitTokens !== undefined ? ` (${details.promptTokens !== undefined ? `${details.promptTokens} tokens > ` : ''}${details.limitTokens} maximum)` : '';
  return new ProviderError(
    'provider_context_too_long',
    `${PROVIDER_LABELS[provider]} refused the request as longer than the model's context window${numbers} (${said}). Compact the conversation with /compact, start a new one with /clear, or choose a model with a larger window.`,
    details,
  );
}

import { OneClawError } from '@oneclaw/core';
import type { ProviderName } from '@oneclaw/tool-registry';

/**
 * Stable codes of every provider failure. Callers branch on these (the agent loop shows a
 * different hint for an auth failure than for an outage), so they never change meaning.
 */
export type ProviderErrorCode =
  | 'provider_auth_failed'
  | 'provider_rate_limited'
  | 'provider_unavailable'
  | 'provider_bad_request'
  | 'provider_bad_response'
  | 'provider_timeout'
  | 'provider_cancelled'
  /** The prompt is longer than the model's context window (details: `limitTokens`, `promptTokens` when the provider named them). */
  | 'provider_context_too_long';

/** The codes worth another attempt: the same request may well succeed a moment later. */
export const RETRYABLE_PROVIDER_CODES: ReadonlySet<string> = new Set<ProviderErrorCode>(['provider_rate_limited', 'provider_unavailable']);

/**
 * What `ModelProvider.complete` rejects with. Messages say what to do next and, like `details`,
 * never contain the API key (providers sometimes echo it; `redactSecret` removes it).
 */
export class ProviderError extends OneClawError {
  constructor(code: ProviderErrorCode, message: string, details: Readonly<Record<string, unknown>> = {}) {
    super(code, message, details);
  }

  get retryable(): boolean {
    return RETRYABLE_PROVIDER_CODES.has(this.code);
  }
}

export function isProviderError(value: unknown, code?: ProviderErrorCode): value is ProviderError {
  return value instanceof ProviderError && (code === undefined || value.code === code);
}

export const PROVIDER_LABELS: Readonly<Record<ProviderName, string>> = {
  openai: 'OpenAI-compatible server',
  anthropic: 'Anthropic',
  gemini: 'Gemini',
};

/** The settings a user fixes when credentials or the address are wrong (see server-config). */
export const PROVIDER_SETTINGS_HINT: Readonly<Record<ProviderName, string>> = {
  openai: 'Check OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible server)',
  anthropic: 'Check ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL if set)',
  gemini: 'Check GEMINI_API_KEY (and GEMINI_BASE_URL if set)',
};

const REDACTED = '[redacted]';

/** Removes every occurrence of the secret; short secrets are still removed because a leak is worse than a mangled message. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join(REDACTED);
}

import { ENVIRONMENT_PROVIDER_ID, type ConfiguredProvider, type ProviderKind } from '@oneclaw/core';
import { ANTHROPIC_DEFAULT_BASE_URL, GEMINI_DEFAULT_BASE_URL, OPENAI_DEFAULT_BASE_URL } from '@oneclaw/model-providers';
import type { ProviderConfig } from '../server-config';
import type { StoredSecret } from './secret-store';

/** What it takes to talk to one provider: its wire format, address and key. */
export interface ProviderConnection {
  readonly providerId: string;
  readonly kind: ProviderKind;
  /** Undefined: the vendor's public endpoint. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
}

/** The provider configured by environment variables (server-config `provider`), shown as provider `env`. */
export interface EnvironmentProvider extends ProviderConnection {
  readonly providerId: typeof ENVIRONMENT_PROVIDER_ID;
  readonly name: string;
  /** ONECLAW_MODEL or the vendor default. */
  readonly model: string;
}

export const DEFAULT_BASE_URLS: Readonly<Record<ProviderKind, string>> = {
  openai: OPENAI_DEFAULT_BASE_URL,
  anthropic: ANTHROPIC_DEFAULT_BASE_URL,
  gemini: GEMINI_DEFAULT_BASE_URL,
};

export const PROVIDER_KIND_LABELS: Readonly<Record<ProviderKind, string>> = { openai: 'OPENAI', anthropic: 'ANTHROPIC', gemini: 'GEMINI' };

export const KEY_VARIABLES: Readonly<Record<ProviderKind, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
};

export function environmentProvider(config: ProviderConfig | undefined): EnvironmentProvider | undefined {
  if (!config) return undefined;
  return {
    providerId: ENVIRONMENT_PROVIDER_ID,
    name: `Environment (${PROVIDER_KIND_LABELS[config.kind]})`,
    kind: config.kind,
    model: config.model,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
  };
}

/**
 * The connection of a configured provider. Its key is used only when it is the one its latest
 * `ProviderApiKeySet` event recorded: a key left from an older setting is stale.
 */
export function configuredConnection(provider: ConfiguredProvider, key: StoredSecret | undefined): ProviderConnection {
  const apiKey = provider.apiKeySet && key && key.eventId === provider.apiKeyEventId ? key.value : undefined;
  return { providerId: provider.providerId, kind: provider.kind, baseUrl: clientBaseUrl(provider.kind, provider.apiBaseUrl), ...(apiKey ? { apiKey } : {}) };
}

/**
 * The base URL as our clients take it. People (and models) write Anthropic and Gemini URLs with
 * the version path (`https://api.anthropic.com/v1`); the clients add it themselves, so it is dropped.
 */
export function clientBaseUrl(kind: ProviderKind, apiBaseUrl: string): string {
  const url = apiBaseUrl.replace(/\/+$/, '');
  if (kind === 'anthropic') return url.replace(/\/v1$/, '');
  if (kind === 'gemini') return url.replace(/\/v1(beta)?$/, '');
  return url;
}

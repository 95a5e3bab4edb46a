import type { ModelProvider } from './model-provider';
import { AnthropicProvider } from './anthropic/anthropic-provider';
import { GeminiProvider } from './gemini/gemini-provider';
import { OpenAiCompatibleProvider } from './openai-compatible/openai-compatible-provider';
import type { ProviderTransportOptions } from './shared/provider-transport';

export interface ModelProviderConfig extends ProviderTransportOptions {
  readonly kind: 'openai' | 'anthropic' | 'gemini';
  readonly apiKey?: string;
  /** Overrides the public endpoint: OpenAI-compatible local servers, proxies, test fakes. */
  readonly baseUrl?: string;
}

/** The provider for a server configuration; the key stays inside the provider and its auth header. */
export function createModelProvider(config: ModelProviderConfig): ModelProvider {
  const { kind, ...options } = config;
  switch (kind) {
    case 'openai':
      return new OpenAiCompatibleProvider(options);
    case 'anthropic':
      return new AnthropicProvider(options);
    case 'gemini':
      return new GeminiProvider(options);
  }
}

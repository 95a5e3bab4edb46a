export type {
  ChatAttachment,
  ChatMessage,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelStreamHandlers,
  ModelToolCall,
  ProviderMetadata,
  ProviderRetryNotice,
  TokenUsage,
} from './model-provider';
export { createModelProvider, type ModelProviderConfig } from './create-model-provider';
export { ProviderError, isProviderError, RETRYABLE_PROVIDER_CODES, type ProviderErrorCode } from './provider-error';
export type { ProviderTransportOptions } from './provider-transport';
export { parseRetryAfterMs } from './http-failure';
export { OpenAiCompatibleProvider, OPENAI_DEFAULT_BASE_URL, type OpenAiCompatibleProviderOptions } from './openai-compatible-provider';
export {
  AnthropicProvider,
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_VERSION,
  type AnthropicMetadata,
  type AnthropicProviderOptions,
  type AnthropicThinkingBlock,
} from './anthropic-provider';
export { GeminiProvider, GEMINI_DEFAULT_BASE_URL, geminiCallId, type GeminiMetadata, type GeminiProviderOptions } from './gemini-provider';

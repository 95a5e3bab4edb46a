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
export { ProviderError, isProviderError, RETRYABLE_PROVIDER_CODES, PROVIDER_LABELS, redactSecret, type ProviderErrorCode } from './shared/provider-error';
export type { ProviderTransportOptions } from './shared/provider-transport';
export { parseRetryAfterMs, errorFromHttpStatus } from './shared/http-failure';
export { OpenAiCompatibleProvider, OPENAI_DEFAULT_BASE_URL, toOpenAiMessages, type OpenAiCompatibleProviderOptions } from './openai-compatible/openai-compatible-provider';
export {
  AnthropicProvider,
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_VERSION,
  toAnthropicMessages,
  type AnthropicMetadata,
  type AnthropicProviderOptions,
  type AnthropicThinkingBlock,
} from './anthropic/anthropic-provider';
export { GeminiProvider, GEMINI_DEFAULT_BASE_URL, geminiCallId, toGeminiContents, type GeminiMetadata, type GeminiProviderOptions } from './gemini/gemini-provider';

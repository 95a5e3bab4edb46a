/** The LLM APIs whose tool formats we produce (T1); OpenAI-compatible local servers use `openai`. */
export type ProviderName = 'openai' | 'anthropic' | 'gemini';

export const PROVIDER_NAMES: readonly ProviderName[] = ['openai', 'anthropic', 'gemini'];

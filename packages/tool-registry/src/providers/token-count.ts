import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ToolPayload } from './provider-formats';

/** Text from tools and users may contain "<|endoftext|>"; count it as text instead of throwing. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Tokens of `text` in OpenAI's o200k encoding. */
export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : countTokens(text, AS_PLAIN_TEXT);
}

/**
 * Tokens of a provider's `tools` value as serialized JSON, with o200k. Providers render tools
 * into the prompt their own way (OpenAI as a TypeScript-like namespace, Anthropic with its own
 * tokenizer), so this is a consistent yardstick for comparing tool sets and formats, not the
 * provider's billed count. It is what `ModelRequested.schemaTokens` records.
 */
export function countToolPayloadTokens(payload: ToolPayload): number {
  return payload.tools.length === 0 ? 0 : countTextTokens(JSON.stringify(payload.tools));
}

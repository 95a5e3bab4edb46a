import { countTokens, decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
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

/**
 * `text` cut to at most `maxTokens` o200k tokens (whole tokens, so the cut never splits a
 * character the tokenizer kept whole), and whether anything was cut.
 */
export function cutToTokens(text: string, maxTokens: number): { readonly text: string; readonly cut: boolean } {
  if (countTextTokens(text) <= maxTokens) return { text, cut: false };
  const tokens = encode(text, AS_PLAIN_TEXT);
  return { text: decode(tokens.slice(0, Math.max(0, maxTokens))), cut: true };
}

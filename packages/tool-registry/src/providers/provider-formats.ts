import type { JsonSchemaObject } from '../json-schema';
import type { ToolDefinition } from '../tool-definition';
import { adaptSchema } from './adapt-schema';
import type { ProviderName } from './provider-name';

/** One entry of an OpenAI chat-completions `tools` array. */
export interface OpenAiTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: JsonSchemaObject };
}

/** One entry of an Anthropic messages `tools` array. */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonSchemaObject;
}

export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description: string;
  /** Absent for a tool without parameters: Gemini rejects an OBJECT with no properties. */
  readonly parameters?: JsonSchemaObject;
}

/** One entry of a Gemini generateContent `tools` array. */
export interface GeminiTool {
  readonly functionDeclarations: readonly GeminiFunctionDeclaration[];
}

/** `tools` is exactly the value of the request body's `tools` field for that provider. */
export type ToolPayload =
  | { readonly provider: 'openai'; readonly tools: readonly OpenAiTool[] }
  | { readonly provider: 'anthropic'; readonly tools: readonly AnthropicTool[] }
  | { readonly provider: 'gemini'; readonly tools: readonly GeminiTool[] };

/** A tool whose schema is already adapted to the provider (see `adaptSchema`). */
export interface AdaptedTool {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonSchemaObject | undefined;
}

const EMPTY_OBJECT: JsonSchemaObject = Object.freeze({ type: 'object', properties: {} });

export function formatAdaptedTools(provider: ProviderName, tools: readonly AdaptedTool[]): ToolPayload {
  switch (provider) {
    case 'openai':
      return {
        provider,
        tools: tools.map((t) => ({
          type: 'function' as const,
          function: { name: t.name, description: t.description, parameters: t.schema ?? EMPTY_OBJECT },
        })),
      };
    case 'anthropic':
      return {
        provider,
        tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema ?? EMPTY_OBJECT })),
      };
    case 'gemini':
      // Gemini rejects an empty functionDeclarations list, so no tools means no `tools` entry.
      return {
        provider,
        tools:
          tools.length === 0
            ? []
            : [
                {
                  functionDeclarations: tools.map((t) =>
                    t.schema ? { name: t.name, description: t.description, parameters: t.schema } : { name: t.name, description: t.description },
                  ),
                },
              ],
      };
  }
}

/**
 * Formats definitions for a provider, adapting each schema on the spot. The registry's
 * `toolPayload` does the same from schemas adapted once at registration.
 */
export function formatTools(provider: ProviderName, definitions: readonly ToolDefinition[]): ToolPayload {
  return formatAdaptedTools(
    provider,
    definitions.map((d) => ({ name: d.name, description: d.description, schema: adaptSchema(provider, d.parameters).schema })),
  );
}

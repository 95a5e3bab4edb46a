import type { AnthropicTool, GeminiTool, OpenAiTool, ProviderName, ToolPayload } from '@oneclaw/tool-registry';
import { ProviderError } from './provider-error';

interface ToolsByProvider {
  readonly openai: readonly OpenAiTool[];
  readonly anthropic: readonly AnthropicTool[];
  readonly gemini: readonly GeminiTool[];
}

/**
 * The `tools` value for the body, or undefined when there are none (the field is then omitted:
 * Gemini rejects an empty list). A payload formatted for another provider is a wiring bug that
 * would otherwise surface as a confusing 400 from the API, so it fails here with a clear message.
 */
export function requestTools<P extends ProviderName>(provider: P, payload: ToolPayload): ToolsByProvider[P] | undefined {
  if (payload.provider !== provider) {
    throw new ProviderError(
      'provider_bad_request',
      `Tools were formatted for ${payload.provider} but the request goes to ${provider}; build the tool payload for the configured provider.`,
      {
        provider,
        toolsProvider: payload.provider,
      },
    );
  }
  return payload.tools.length === 0 ? undefined : (payload.tools as ToolsByProvider[P]);
}

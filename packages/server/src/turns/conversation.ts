import type { MessageData } from '@oneclaw/core';
import { toolResultForModel, type ProviderName } from '@oneclaw/tool-registry';
import type { ChatMessage } from '../providers/model-provider';

/**
 * The session's conversation (since the last clear) as the provider-neutral messages a
 * provider encodes. Tool results reach the model in the T6 envelope `{status, result}` /
 * `{status, error_type, message}`, always as tool results, never in the system prompt (INJ-05).
 * Provider state (thinking blocks, thought signatures) is passed back only to the provider that
 * produced it.
 */
export function toChatMessages(messages: readonly MessageData[], provider: ProviderName): ChatMessage[] {
  return messages.map((m): ChatMessage => {
    switch (m.role) {
      case 'user':
        return { role: 'user', text: m.text };
      case 'assistant':
        return {
          role: 'assistant',
          text: m.text,
          toolCalls: m.toolCalls.map((c) => ({ callId: c.callId, toolName: c.toolName, arguments: c.arguments })),
          ...(m.providerMetadata?.provider === provider ? { providerMetadata: { provider, data: m.providerMetadata.data } } : {}),
        };
      case 'tool':
        return {
          role: 'tool',
          callId: m.callId,
          toolName: m.toolName,
          isError: m.status === 'error',
          content: toolResultForModel(
            m.status === 'success' ? { status: 'success', result: m.result } : { status: 'error', errorType: m.errorType, message: m.message },
          ),
        };
    }
  });
}

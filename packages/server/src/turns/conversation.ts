import { modelConversation, type MessageData, type SessionState } from '@oneclaw/core';
import { toolResultForModel, type ProviderName } from '@oneclaw/tool-registry';
import type { ChatMessage } from '@oneclaw/model-providers';

/**
 * The session's conversation (since the last clear; after a compaction, its summary and the
 * messages after it) as the provider-neutral messages a
 * provider encodes. Tool results reach the model in the T6 envelope `{status, result}` /
 * `{status, error_type, message}`, always as tool results, never in the system prompt (INJ-05).
 * Provider state (thinking blocks, thought signatures) is passed back only to the provider that
 * produced it.
 */
export function toChatMessages(state: SessionState, provider: ProviderName): ChatMessage[] {
  const { summary, messages } = modelConversation(state);
  const chat = messages.map((m) => convertedOnce(m, provider));
  if (summary === null) return chat;
  return withSummary(summary, chat);
}

/** Marks the summary as such, so the model does not take it for the user's words. */
export const SUMMARY_HEADER = '[Summary of the earlier conversation, written when it was compacted to fit the context window]';

/**
 * The summary goes first as a user message (it holds tool output, so it never goes into the
 * system prompt). When the kept part starts with a user message, the two are one message:
 * Gemini refuses two user turns in a row. A cut never leaves a tool result first.
 */
function withSummary(summary: string, chat: ChatMessage[]): ChatMessage[] {
  const block = `${SUMMARY_HEADER}\n${summary}\n[End of summary]`;
  const [first, ...rest] = chat;
  if (first?.role === 'user') return [{ ...first, text: `${block}\n\n${first.text}` }, ...rest];
  return [{ role: 'user', text: block }, ...chat];
}

/**
 * Each recorded message converted once per provider. Recorded messages are immutable and the
 * same objects from one state of a session to the next (evolve copies the arrays, not the
 * messages), so a request reuses the conversions of the requests before it instead of building
 * the whole conversation again: in long sessions that rebuild, mostly the tool results' JSON,
 * was 3.6% of a loaded server's main thread (benchmarks.md, F5). Weak: a message no session
 * holds any more takes its conversions with it.
 */
const conversions = new WeakMap<MessageData, Partial<Record<ProviderName, ChatMessage>>>();

function convertedOnce(m: MessageData, provider: ProviderName): ChatMessage {
  let byProvider = conversions.get(m);
  if (!byProvider) conversions.set(m, (byProvider = {}));
  return (byProvider[provider] ??= toChatMessage(m, provider));
}

function toChatMessage(m: MessageData, provider: ProviderName): ChatMessage {
  switch (m.role) {
    case 'user':
      // References only: the bytes are loaded just before the request (load-attachments.ts).
      return { role: 'user', text: m.text, ...(m.attachments && m.attachments.length > 0 ? { attachments: m.attachments.map((a) => ({ ...a })) } : {}) };
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
        content: toolResultForModel(m.status === 'success' ? { status: 'success', result: m.result } : { status: 'error', errorType: m.errorType, message: m.message }),
      };
  }
}

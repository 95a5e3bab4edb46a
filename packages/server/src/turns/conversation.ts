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
export function toChatMessages(state: SessionState, provider: ProviderName): readonly ChatMessage[] {
  const { summary, messages } = modelConversation(state);
  const chat = converted(state.transcript[0], messages, provider);
  if (summary === null) return chat;
  return withSummary(summary, chat);
}

/** Marks the summary as such, so the model does not take it for the user's words. */
export const SUMMARY_HEADER = '[Summary of the earlier conversation, written when it was compacted to fit the context window]';

/**
 * The summary goes first as a user message (it holds tool output, so it never goes into the
 * system prompt). When the kept part starts with a user message, the two are one message:
 * Gemini refuses two user turns in a row. A cut never leaves a tool result first. The head is
 * kept per first message and summary, so the next request sends the same objects (see below).
 */
function withSummary(summary: string, chat: readonly ChatMessage[]): ChatMessage[] {
  const [first, ...rest] = chat;
  const cached = first === undefined ? undefined : summaryHeads.get(first);
  if (cached?.summary === summary) return [...cached.head, ...rest];
  const block = `${SUMMARY_HEADER}\n${summary}\n[End of summary]`;
  const head: ChatMessage[] = first?.role === 'user' ? [{ ...first, text: `${block}\n\n${first.text}` }] : [{ role: 'user', text: block }, ...(first ? [first] : [])];
  if (first !== undefined) summaryHeads.set(first, { summary, head });
  return [...head, ...rest];
}

const summaryHeads = new WeakMap<ChatMessage, { readonly summary: string; readonly head: readonly ChatMessage[] }>();

/**
 * The last conversion of each conversation, by the first message of the session's transcript
 * since its last clear: that message stays while the session does (a retry or an edit of the
 * first message supersedes it but the transcript keeps it), so each session has one entry, which
 * the next request replaces. Keyed by the first message of the part sent instead, a compaction
 * (which starts that part later) or an edit would leave the conversions of the old start, and the
 * provider's JSON kept by them, in memory for as long as the session is cached; one entry per
 * provider would do the same after a change of model provider.
 * Recorded messages are immutable and the same objects from one state of a session to the next
 * (evolve copies the arrays, not the messages), so a request keeps the conversions of the
 * longest start it shares with the request before (compared by identity, same provider) and
 * converts only the rest: the same ChatMessage objects go out again, which lets a provider keep
 * their JSON too. Rebuilding the conversation on every request, then looking each message up in
 * a WeakMap, were 3.6% and 3.5% of a loaded server's main thread (benchmarks.md, F5).
 * Kept for the KEPT_CONVERSATIONS conversations used last only (a Map in order of use): the
 * conversion and the provider's JSON kept by it add about 85% to a cached session's state
 * (memory.md), outside the session cache's bound, so a server with many cached sessions kept
 * that much again for every one of them. A conversation past the bound converts and serializes
 * its messages once on its next request, then goes on from there.
 */
const lastConversions = new Map<MessageData, LastConversion>();

/** More than the conversations a small server has in flight at once (the benches run 50). */
export const KEPT_CONVERSATIONS = 64;

interface LastConversion {
  readonly provider: ProviderName;
  readonly sources: readonly MessageData[];
  readonly chat: readonly ChatMessage[];
}

function converted(key: MessageData | undefined, messages: readonly MessageData[], provider: ProviderName): readonly ChatMessage[] {
  if (key === undefined || messages.length === 0) return [];
  const last = lastConversions.get(key);
  let shared = 0;
  if (last?.provider === provider) {
    const max = Math.min(last.sources.length, messages.length);
    while (shared < max && last.sources[shared] === messages[shared]) shared++;
  }
  const chat = shared > 0 ? (last as LastConversion).chat.slice(0, shared) : [];
  for (let i = shared; i < messages.length; i++) chat.push(toChatMessage(messages[i] as MessageData, provider));
  lastConversions.delete(key); // to the end: the order of the Map is the order of use
  lastConversions.set(key, { provider, sources: messages, chat });
  if (lastConversions.size > KEPT_CONVERSATIONS) lastConversions.delete(lastConversions.keys().next().value as MessageData);
  return chat;
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

import type { MessageData } from '../events/session-events';

/**
 * Positions after which the conversation may be cut: every tool call made up to there has its
 * result up to there, and the next message is not a tool result. Providers refuse a request
 * with a call and no result (or a result and no call), so a summary must never separate them.
 * `cuts[i]` is true when a cut right after `messages[i]` is allowed.
 */
export function allowedCuts(messages: readonly MessageData[]): boolean[] {
  const open = new Set<string>();
  return messages.map((m, i) => {
    if (m.role === 'assistant') for (const call of m.toolCalls) open.add(call.callId);
    if (m.role === 'tool') open.delete(m.callId);
    const next = messages[i + 1];
    return open.size === 0 && next?.role !== 'tool';
  });
}

export function isAllowedCut(messages: readonly MessageData[], index: number): boolean {
  return index >= 0 && index < messages.length && allowedCuts(messages)[index] === true;
}

/**
 * Where to cut for a compaction: the index of the last message the summary covers, or null when
 * nothing can be summarised. The most recent messages that fit in `keepTokens` are protected
 * (and the last message always is: the model must see what it answers); the cut is the latest
 * allowed one before them, so the summary covers as much as it may. It must cover at least one
 * message after `from` (the first message not covered by an earlier summary), or there is
 * nothing new to summarise.
 */
export function chooseCompactionBoundary(
  messages: readonly MessageData[],
  options: { readonly from: number; readonly keepTokens: number; readonly tokensOf: (message: MessageData) => number },
): number | null {
  let protectedFrom = messages.length - 1;
  let kept = messages.length > 0 ? options.tokensOf(messages[messages.length - 1] as MessageData) : 0;
  while (protectedFrom > 0) {
    const more = kept + options.tokensOf(messages[protectedFrom - 1] as MessageData);
    if (more > options.keepTokens) break;
    kept = more;
    protectedFrom--;
  }
  const cuts = allowedCuts(messages);
  for (let i = protectedFrom - 1; i >= Math.max(0, options.from); i--) {
    if (cuts[i]) return i;
  }
  return null;
}

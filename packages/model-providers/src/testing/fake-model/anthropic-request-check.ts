/**
 * What the real Messages API refuses in a request's `messages` with 400 invalid_request_error,
 * as far as the encoder can get it wrong, so a test against the fake fails the way production
 * would: blank text, a message without content, a tool_use id that is ill-formed or used twice in
 * the request, a tool_result that answers no tool_use of the message before. The messages are the
 * API's own. Stricter than the API in one place: it was seen to take
 * a whitespace-only text block beside a non-blank one; the fake refuses every whitespace-only
 * block, which the encoder never needs to send.
 */
export function anthropicRequestRefusal(body: Record<string, unknown>): string | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages)) return 'messages: Field required';
  const toolUseIds = new Set<unknown>();
  /** The tool_use ids of the message before, which the tool_result blocks of the next one answer. */
  let answerable = new Set<unknown>();
  for (const [i, message] of messages.entries()) {
    const content = (message as { content?: unknown } | null)?.content;
    const blocks: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
    // The API's exception (a final assistant message may be empty, as a prefill) is never sent by the encoder.
    if (blocks.length === 0) return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    const uses = new Set<unknown>();
    for (const [j, block] of blocks.entries()) {
      const { type, text, id, tool_use_id: answers } = block as { type?: unknown; text?: unknown; id?: unknown; tool_use_id?: unknown };
      if (type === 'text') {
        if (text === '') return 'messages: text content blocks must be non-empty';
        if (typeof text === 'string' && !/\S/.test(text)) return 'messages: text content blocks must contain non-whitespace text';
      } else if (type === 'tool_use') {
        if (typeof id !== 'string' || !/^[a-zA-Z0-9_-]+$/.test(id)) return `messages.${i}.content.${j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
        if (toolUseIds.has(id)) return `messages.${i}.content.${j}: \`tool_use\` ids must be unique`;
        toolUseIds.add(id);
        uses.add(id);
      } else if (type === 'tool_result' && !answerable.has(answers)) {
        return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(answers)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
    }
    answerable = uses;
  }
  return undefined;
}

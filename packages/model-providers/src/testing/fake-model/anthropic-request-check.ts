/**
 * What the real Messages API refuses in a request's `messages` with 400 invalid_request_error,
 * as far as the encoder can get it wrong, so a test against the fake fails the way production
 * would. The messages are the API's own. Stricter than the API in one place: it was seen to take
 * a whitespace-only text block beside a non-blank one; the fake refuses every whitespace-only
 * block, which the encoder never needs to send.
 */
export function anthropicRequestRefusal(body: Record<string, unknown>): string | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages)) return 'messages: Field required';
  for (const [i, message] of messages.entries()) {
    const content = (message as { content?: unknown } | null)?.content;
    const blocks: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
    // The API's exception (a final assistant message may be empty, as a prefill) is never sent by the encoder.
    if (blocks.length === 0) return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    for (const block of blocks) {
      const { type, text } = block as { type?: unknown; text?: unknown };
      if (type !== 'text') continue;
      if (text === '') return 'messages: text content blocks must be non-empty';
      if (typeof text === 'string' && !/\S/.test(text)) return 'messages: text content blocks must contain non-whitespace text';
    }
  }
  return undefined;
}

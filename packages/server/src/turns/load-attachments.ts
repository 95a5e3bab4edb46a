import type { ChatMessage } from '@oneclaw/model-providers';

/** Where the agent loop reads attached files from (the AttachmentStore; a fake in tests). */
export interface AttachmentReader {
  /** The bytes, or undefined when the file is not in the store. */
  read(hash: string): Buffer | undefined;
}

/**
 * Fills in the bytes (base64) of every attachment of the conversation, just before a model
 * request: the events hold only references. A file the store no longer has is marked missing,
 * and the provider tells the model so in words: the turn still runs.
 *
 * `cache` (base64 by hash, undefined for a missing file) is read and filled: a file attached
 * twice, or to two messages, is read once per cache. The agent loop gives one per turn, so each
 * round of a tool loop does not read and encode every attached file of the conversation again;
 * the next turn reads them afresh.
 */
export function withAttachmentBytes(messages: readonly ChatMessage[], reader: AttachmentReader, cache = new Map<string, string | undefined>()): ChatMessage[] {
  const load = (hash: string) => {
    if (!cache.has(hash)) cache.set(hash, reader.read(hash)?.toString('base64'));
    return cache.get(hash);
  };
  return messages.map((message) => {
    if (message.role !== 'user' || !message.attachments?.length) return message;
    return {
      ...message,
      attachments: message.attachments.map((attachment) => {
        const data = load(attachment.hash);
        return data === undefined ? { ...attachment, missing: true } : { ...attachment, data };
      }),
    };
  });
}

import type { AttachmentRef } from '@oneclaw/core';
import { attachmentErrors } from './attachment-errors';
import { cleanFileName, type AttachmentStore } from './attachment-store';

/**
 * The references a message records for the hashes its sender gave: media type and size from the
 * store (never from the client), the name the client gave or else the uploaded one. An unknown
 * hash is `attachment_not_found` (400), before anything is recorded.
 */
export function resolveAttachments(store: Pick<AttachmentStore, 'describe'>, requested: readonly { readonly hash: string; readonly name?: string }[]): AttachmentRef[] {
  return requested.map(({ hash, name }) => {
    const stored = store.describe(hash);
    if (!stored) throw attachmentErrors.notFound(hash);
    return { ...stored, name: cleanFileName(name) ?? stored.name };
  });
}

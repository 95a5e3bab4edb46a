import type { ApiClient } from '../api/client';
import type { AttachmentRef } from '@oneclaw/api-contract';

/** What the server accepts (docs/api.md, "Attachments"); the file input offers only these. */
export const ATTACHMENT_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'];
/** The server's default limit (ONECLAW_ATTACHMENT_MAX_BYTES); a larger file is refused here, before it is sent. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
/** As many as one message may carry. */
export const MAX_ATTACHMENTS = 10;

/** The part of a File this page reads (a plain object in unit tests). */
export interface FileLike {
  readonly name: string;
  readonly type: string;
  readonly size: number;
}

/** Why a chosen file cannot be attached, in words, or undefined when it can. */
export function attachmentProblem(file: FileLike): string | undefined {
  if (!ATTACHMENT_TYPES.includes(file.type)) {
    return `"${file.name}" cannot be attached: only PNG, JPEG, GIF and WebP images and PDF files can.`;
  }
  if (file.size > ATTACHMENT_MAX_BYTES) {
    return `"${file.name}" is too big (${fileSize(file.size)}): files up to ${fileSize(ATTACHMENT_MAX_BYTES)} can be attached.`;
  }
  if (file.size === 0) return `"${file.name}" is empty.`;
  return undefined;
}

/** "812 B", "2.4 KB", "20 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${value.toFixed(1).replace(/\.0$/, '')} ${unit}`;
}

/** Uploads one file (its bytes as they are); the server checks the type against the bytes. */
export function uploadAttachment(api: Pick<ApiClient, 'postBytes'>, file: File): Promise<AttachmentRef> {
  return api.postBytes<AttachmentRef>('/api/attachments', file, file.type, { headers: { 'x-attachment-name': encodeURIComponent(file.name) } });
}

export function attachmentPath(hash: string): string {
  return `/api/attachments/${encodeURIComponent(hash)}`;
}

export function isImage(mediaType: string): boolean {
  return mediaType.startsWith('image/');
}

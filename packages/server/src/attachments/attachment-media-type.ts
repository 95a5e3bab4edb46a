import { ATTACHMENT_MEDIA_TYPES, type AttachmentMediaType } from '@oneclaw/core';

/** Whether a Content-Type (parameters and case aside) is one a message may carry. */
export function allowedMediaType(contentType: string | undefined): AttachmentMediaType | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return (ATTACHMENT_MEDIA_TYPES as readonly string[]).includes(type) ? (type as AttachmentMediaType) : undefined;
}

/**
 * The media type the bytes themselves show (their magic numbers), or undefined. An upload is
 * accepted only when this matches its Content-Type: the file is later served with that type and
 * sent to model APIs as it, so a renamed HTML or executable file must not pass as an image.
 */
export function sniffMediaType(bytes: Uint8Array): AttachmentMediaType | undefined {
  const starts = (signature: readonly number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(ascii('GIF87a')) || starts(ascii('GIF89a'))) return 'image/gif';
  if (starts(ascii('RIFF')) && starts(ascii('WEBP'), 8)) return 'image/webp';
  // PDF readers (and the pdf tools) accept a header anywhere in the first KB; so do we.
  if (Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')) return 'application/pdf';
  return undefined;
}

/** The usual file extension of a media type (a default name for an upload that gave none). */
export function extensionOf(mediaType: AttachmentMediaType): string {
  return { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'application/pdf': 'pdf' }[mediaType];
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

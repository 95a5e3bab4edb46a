import { ATTACHMENT_MEDIA_TYPES, byteSize, OneClawError } from '@oneclaw/core';

/** The typed refusals of the attachment routes and of SendMessage's `attachments` (docs/api.md, "Attachments"). */
export const attachmentErrors = {
  unsupportedType: (contentType: string) =>
    new OneClawError(
      'attachment_type_unsupported',
      `Files of type "${contentType || 'none'}" cannot be attached. Attach a PNG, JPEG, GIF or WebP image or a PDF, and send its type as Content-Type.`,
      { contentType, supported: ATTACHMENT_MEDIA_TYPES },
    ),
  typeMismatch: (declared: string, found: string | undefined) =>
    new OneClawError(
      'attachment_type_mismatch',
      `The file is not what its Content-Type says (${declared}): its contents ${found ? `look like ${found}` : 'match none of the allowed types'}. Attach a real PNG, JPEG, GIF, WebP or PDF file with its own type.`,
      { declared, ...(found ? { found } : {}) },
    ),
  tooLarge: (limit: number) =>
    new OneClawError('attachment_too_large', `The file is over the ${byteSize(limit)} attachment limit. Attach a smaller file (or shrink the image, or split the PDF).`, {
      limitBytes: limit,
    }),
  empty: () => new OneClawError('attachment_empty', 'The file is empty. Attach a file with content.'),
  cutOff: () => new OneClawError('invalid_body', 'The upload ended before the whole file arrived (the connection was closed). Upload the file again and let the request finish.'),
  encoded: (encoding: string) =>
    new OneClawError('unsupported_content_encoding', `Content-Encoding "${encoding}" is not accepted for attachments. Send the file's bytes as they are.`, { encoding }),
  notFound: (hash: string) =>
    new OneClawError('attachment_not_found', `No attachment has the hash ${hash}. Upload the file with POST /api/attachments and use the hash it answers.`, { hash }),
  invalidHash: (hash: string) =>
    new OneClawError(
      'invalid_attachment_hash',
      `"${hash.slice(0, 80)}" is not an attachment hash: it is the file's SHA-256 as 64 lowercase hex digits, as POST /api/attachments answers it.`,
    ),
};

import { Controller, Get, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AttachmentRef } from '@oneclaw/core';
import { attachmentErrors } from '../attachments/attachment-errors';
import { allowedMediaType } from '../attachments/attachment-media-type';
import { AttachmentStore, isAttachmentHash } from '../attachments/attachment-store';
import { contentDisposition } from './content-disposition';
import { readUploadBody } from './read-upload-body';
import { ResourceNotFoundError } from './resource-not-found';

/** The header that carries the file name: percent-encoded UTF-8, since header values are ASCII. */
export const ATTACHMENT_NAME_HEADER = 'x-attachment-name';

/**
 * Attachments (docs/api.md, "Attachments"): upload a file's raw bytes, get its content hash, and
 * send the hash with a message. Auth as the rest of /api. The bytes live in the attachment store,
 * never in an event.
 */
@ApiTags('attachments')
@ApiBearerAuth()
@Controller('api/attachments')
export class AttachmentsController {
  constructor(private readonly store: AttachmentStore) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'UploadAttachment: the body is the file itself (PNG, JPEG, GIF, WebP or PDF, checked against its bytes); answers {hash, name, mediaType, bytes}',
    description:
      'Content-Type must be one of image/png, image/jpeg, image/gif, image/webp, application/pdf (otherwise 415 attachment_type_unsupported) and match the bytes (415 attachment_type_mismatch). Over the limit: 413 attachment_too_large. Uploading the same bytes again answers the same hash.',
  })
  @ApiHeader({ name: 'X-Attachment-Name', required: false, description: 'The file name, percent-encoded UTF-8 (encodeURIComponent).' })
  async upload(
    @Req() req: IncomingMessage,
    @Headers('content-type') contentType: string | undefined,
    @Headers(ATTACHMENT_NAME_HEADER) rawName: string | undefined,
  ): Promise<AttachmentRef> {
    const mediaType = allowedMediaType(contentType);
    const encoding = (req.headers['content-encoding'] ?? 'identity').toString().trim().toLowerCase();
    // Refused before a byte is read; the rest of the body is drained so the answer reaches the client.
    const refuse = (error: Error): never => {
      req.resume();
      throw error;
    };
    if (!mediaType) refuse(attachmentErrors.unsupportedType(contentType ?? ''));
    if (encoding !== 'identity') refuse(attachmentErrors.encoded(encoding));
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.store.maxBytes) refuse(attachmentErrors.tooLarge(this.store.maxBytes));
    const bytes = await readUploadBody(req, this.store.maxBytes);
    return this.store.put(bytes, mediaType!, decodeName(rawName));
  }

  @Get(':hash')
  @ApiOperation({ summary: 'GetAttachment: the file, with its media type; PDFs as a download with their name' })
  download(@Param('hash') hash: string, @Res() res: ServerResponse): void {
    if (!isAttachmentHash(hash)) throw attachmentErrors.invalidHash(hash);
    const stored = this.store.describe(hash);
    const bytes = stored && this.store.read(hash);
    if (!stored || !bytes) {
      const missing = attachmentErrors.notFound(hash);
      throw new ResourceNotFoundError(missing.code, missing.message, missing.details);
    }
    res.writeHead(200, {
      'content-type': stored.mediaType,
      'content-length': String(bytes.byteLength),
      // The type was checked against the bytes at upload; the browser must not guess another.
      'x-content-type-options': 'nosniff',
      // Content-addressed: the bytes under a hash never change.
      'cache-control': 'private, max-age=31536000, immutable',
      ...(stored.mediaType === 'application/pdf' ? { 'content-disposition': contentDisposition(stored.name) } : {}),
    });
    res.end(bytes);
  }
}

function decodeName(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

import type { IncomingMessage } from 'node:http';
import { attachmentErrors } from '../attachments/attachment-errors';

/**
 * Reads the whole body, refusing it as soon as it passes `limit` (a missing or false Content-Length),
 * and as cut off when the connection closes before its end (also before this was called: a request
 * destroyed that early emits nothing more, and without that check the upload would never settle).
 */
export function readUploadBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (req.destroyed && !req.complete) {
      reject(attachmentErrors.cutOff());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.byteLength;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(attachmentErrors.tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
    // After 'end' this changes nothing (the promise is settled).
    req.on('close', () => reject(attachmentErrors.cutOff()));
  });
}

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
    // A request that fails before its end lost its connection (Node's 'aborted', ECONNRESET): the
    // client went away (a cancelled upload, a closed tab), so it leaves as a 4xx, which is not
    // logged as a server fault (like a JSON body cut short: request-body-encoding.ts).
    req.on('error', (error) => reject(req.complete ? error : attachmentErrors.cutOff()));
    // After 'end' this changes nothing (the promise is settled).
    req.on('close', () => reject(attachmentErrors.cutOff()));
  });
}

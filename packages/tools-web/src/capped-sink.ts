import { Writable } from 'node:stream';
import { OneClawError } from '@oneclaw/core';

/**
 * A response body collected in memory up to a byte limit. Past the limit it fails with
 * `response_too_large`; SafeFetch passes a OneClawError from its destination through unchanged and
 * stops reading, so no more than the limit (plus one chunk) is ever downloaded.
 */
export class CappedSink extends Writable {
  readonly #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(
    private readonly limit: number,
    private readonly tooLargeMessage: string,
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.limit) {
      callback(new OneClawError('response_too_large', this.tooLargeMessage));
      return;
    }
    this.#chunks.push(chunk);
    callback();
  }

  body(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}

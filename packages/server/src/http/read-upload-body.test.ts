import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { readUploadBody } from './read-upload-body';

/** A request body as the server sees it: a readable stream, `complete` once it has ended. */
function body(): PassThrough & { complete: boolean } {
  const stream = new PassThrough() as PassThrough & { complete: boolean };
  stream.complete = false;
  stream.on('end', () => (stream.complete = true));
  return stream;
}

const read = (stream: PassThrough, limit = 100) => readUploadBody(stream as unknown as IncomingMessage, limit);

describe('readUploadBody: an upload body is read whole, refused when too large, and cut off when its connection goes', () => {
  it('gives back the whole body', async () => {
    const stream = body();
    const reading = read(stream);
    stream.end(Buffer.from('abc'));
    await expect(reading).resolves.toEqual(Buffer.from('abc'));
  });

  it('refuses a body over the limit as soon as it passes it', async () => {
    const stream = body();
    const reading = read(stream, 2);
    stream.write(Buffer.from('abc'));
    await expect(reading).rejects.toMatchObject({ code: 'attachment_too_large' });
  });

  it('a connection that closes mid-body (without an error) is invalid_body, not a wait for ever', async () => {
    const stream = body();
    const reading = read(stream);
    stream.write(Buffer.from('ab'));
    stream.destroy();
    await expect(reading).rejects.toMatchObject({ code: 'invalid_body' });
  });

  it("a connection that fails mid-body (Node's 'aborted') is invalid_body, not the raw error", async () => {
    const stream = body();
    const reading = read(stream);
    stream.write(Buffer.from('ab'));
    stream.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    await expect(reading).rejects.toMatchObject({ code: 'invalid_body' });
  });

  it('a request already destroyed before the body is read (it emits nothing more) is invalid_body at once', async () => {
    const stream = body();
    stream.destroy();
    await new Promise((resolve) => stream.on('close', resolve));
    await expect(read(stream)).rejects.toMatchObject({ code: 'invalid_body' });
  });
});

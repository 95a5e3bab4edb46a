import { afterEach, describe, expect, it, jest } from '@jest/globals';
import crypto from 'node:crypto';
import { errorCode } from './fetch-errors.test-support';
import { buildMultipart } from './multipart';

afterEach(() => {
  jest.restoreAllMocks();
});

describe('buildMultipart', () => {
  it('lays out a Drive multipart/related upload byte for byte, with CRLF line endings (RFC 2046)', () => {
    const built = buildMultipart([
      { contentType: 'application/json; charset=UTF-8', body: '{"name":"a.txt"}' },
      { contentType: 'text/plain', body: 'line 1\nline 2' },
    ]);
    const boundary = /^multipart\/related; boundary=(oneclaw-[0-9a-f]{48})$/.exec(built.contentType)?.[1];
    expect(boundary).toBeDefined();
    expect(Buffer.from(built.body).toString()).toBe(
      `--${boundary}\r\n` +
        'Content-Type: application/json; charset=UTF-8\r\n' +
        '\r\n' +
        '{"name":"a.txt"}\r\n' +
        `--${boundary}\r\n` +
        'Content-Type: text/plain\r\n' +
        '\r\n' +
        'line 1\nline 2\r\n' +
        `--${boundary}--\r\n`,
    );
    expect(boundary?.length).toBeLessThanOrEqual(70);
  });

  it('writes form-data parts with their own headers, binary bodies untouched, contentType winning', () => {
    const bytes = Uint8Array.from([0xff, 0x00, 0x0d, 0x0a]);
    const built = buildMultipart(
      [
        { headers: { 'Content-Disposition': 'form-data; name="title"' }, body: 'Hello' },
        {
          headers: { 'Content-Disposition': 'form-data; name="file"; filename="x.bin"', 'content-type': 'text/plain' },
          contentType: 'application/octet-stream',
          body: bytes.subarray(1),
        },
      ],
      'form-data',
    );
    const boundary = built.contentType.split('boundary=')[1] ?? '';
    expect(built.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const expected = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      Buffer.from([0x00, 0x0d, 0x0a]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expect(Buffer.from(built.body).equals(expected)).toBe(true);
  });

  it('writes a part without headers as a blank line and its body (mixed)', () => {
    const built = buildMultipart([{ body: 'plain' }], 'mixed');
    const boundary = built.contentType.split('boundary=')[1] ?? '';
    expect(Buffer.from(built.body).toString()).toBe(`--${boundary}\r\n\r\nplain\r\n--${boundary}--\r\n`);
  });

  it('draws a new boundary while the candidate occurs in a part', () => {
    const first = Buffer.alloc(24, 0xaa);
    const second = Buffer.alloc(24, 0xbb);
    const draws = [first, second];
    jest.spyOn(crypto, 'randomBytes').mockImplementation((() => draws.shift() ?? Buffer.alloc(24, 0xcc)) as never);
    const colliding = `oneclaw-${first.toString('hex')}`;
    const built = buildMultipart([{ body: `payload that contains --${colliding} already` }]);
    expect(built.contentType).toBe(`multipart/related; boundary=oneclaw-${second.toString('hex')}`);
  });

  it('rejects empty part lists and header injection', () => {
    expect(errorCode(() => buildMultipart([]))).toBe('invalid_request');
    expect(errorCode(() => buildMultipart([{ headers: { 'X-A': 'v\r\nX-Injected: 1' }, body: '' }]))).toBe('invalid_request');
    expect(errorCode(() => buildMultipart([{ contentType: 'text/plain\r\n', body: '' }]))).toBe('invalid_request');
    expect(errorCode(() => buildMultipart([{ headers: { 'bad name': 'v' }, body: '' }]))).toBe('invalid_request');
  });
});

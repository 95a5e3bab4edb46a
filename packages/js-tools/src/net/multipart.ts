import { randomBytes } from 'node:crypto';
import { OneClawError } from '@oneclaw/core';

export interface MultipartPart {
  /** Part headers (Content-Disposition, Content-ID, …); names and values must not contain CR or LF. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Content-Type of the part; takes precedence over a content-type in `headers`. */
  readonly contentType?: string;
  readonly body: string | Uint8Array;
}

export type MultipartSubtype = 'related' | 'form-data' | 'mixed';

export interface MultipartBody {
  /** e.g. `multipart/related; boundary=oneclaw-…` */
  readonly contentType: string;
  readonly body: Uint8Array;
}

const CRLF = '\r\n';
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Builds a multipart body (RFC 2046: CRLF line endings, `--boundary` delimiters, closing
 * `--boundary--`). Google Drive's multipart upload is `related`: the JSON metadata part, then the media.
 * The boundary is random and checked not to occur in any part.
 */
export function buildMultipart(parts: readonly MultipartPart[], subtype: MultipartSubtype = 'related'): MultipartBody {
  if (parts.length === 0) throw invalid('A multipart body needs at least one part.');
  const encoded = parts.map((part, index) => ({ head: partHead(part, index), body: toBytes(part.body) }));
  const boundary = pickBoundary(encoded.flatMap((p) => [p.head, p.body]));
  const chunks: Buffer[] = [];
  for (const part of encoded) {
    chunks.push(Buffer.from(`--${boundary}${CRLF}`), part.head, Buffer.from(CRLF), part.body, Buffer.from(CRLF));
  }
  chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return { contentType: `multipart/${subtype}; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

/** The part's header lines, each ending in CRLF (the blank line after them is added by the caller). */
function partHead(part: MultipartPart, index: number): Buffer {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(part.headers ?? {})) {
    if (part.contentType !== undefined && name.toLowerCase() === 'content-type') continue;
    lines.push(headerLine(name, value, index));
  }
  if (part.contentType !== undefined) lines.push(headerLine('Content-Type', part.contentType, index));
  return Buffer.from(lines.join(''), 'utf8');
}

function headerLine(name: string, value: string, index: number): string {
  if (!HEADER_NAME.test(name)) throw invalid(`Part ${index + 1} has an invalid header name ${JSON.stringify(name.slice(0, 64))}.`);
  if (typeof value !== 'string' || /[\r\n\0]/.test(value)) {
    throw invalid(`The header ${name} of part ${index + 1} must be a string without CR, LF or NUL.`);
  }
  return `${name}: ${value}${CRLF}`;
}

function toBytes(body: string | Uint8Array): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function pickBoundary(contents: readonly Buffer[]): string {
  for (;;) {
    // 24 random bytes: a collision is astronomically unlikely, but the check makes it impossible.
    const boundary = `oneclaw-${randomBytes(24).toString('hex')}`;
    if (!contents.some((c) => c.includes(boundary))) return boundary;
  }
}

function invalid(message: string): OneClawError {
  return new OneClawError('invalid_request', message);
}

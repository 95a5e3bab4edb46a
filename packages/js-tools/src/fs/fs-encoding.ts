import { FsError } from './fs-error';

export type FsEncoding = 'utf8' | 'base64' | 'base64url';

const ENCODINGS: readonly FsEncoding[] = ['utf8', 'base64', 'base64url'];

// Node's decoder skips characters it does not know; a tool that sends broken base64 must hear so,
// not get a silently different file. Whitespace (MIME line breaks) is allowed and dropped.
const WHITESPACE = /[\t\n\r ]/g;
const ALPHABET: Readonly<Record<Exclude<FsEncoding, 'utf8'>, RegExp>> = {
  base64: /^[A-Za-z0-9+/]*={0,2}$/,
  base64url: /^[A-Za-z0-9_-]*={0,2}$/,
};

export function checkEncoding(encoding: unknown): FsEncoding {
  if (encoding === undefined) return 'utf8';
  if (typeof encoding === 'string' && (ENCODINGS as readonly string[]).includes(encoding)) return encoding as FsEncoding;
  throw new FsError('invalid_argument', `Unknown encoding ${JSON.stringify(String(encoding)).slice(0, 40)}. Use 'utf8', 'base64' or 'base64url'.`, {
    encoding: String(encoding).slice(0, 40),
  });
}

export function encodeBytes(bytes: Buffer, encoding: FsEncoding): string {
  return bytes.toString(encoding);
}

/** The content as bytes, or an invalid_argument error; `maxBytes` is checked before anything is decoded. */
export function decodeContent(content: unknown, encoding: FsEncoding, onTooLarge: (bytes: number) => FsError, maxBytes: number): Buffer {
  if (typeof content !== 'string') {
    throw new FsError('invalid_argument', `Content must be a string, not ${content === null ? 'null' : typeof content}.`);
  }
  const text = encoding === 'utf8' ? content : content.replace(WHITESPACE, '');
  if (encoding !== 'utf8' && !isWellFormed(text, encoding)) {
    throw new FsError(
      'invalid_argument',
      `Content is not valid ${encoding}. Use ${encoding === 'base64' ? "A-Z, a-z, 0-9, '+' and '/'" : "A-Z, a-z, 0-9, '-' and '_'"}, with at most two '=' at the end.`,
      { encoding },
    );
  }
  const bytes = Buffer.byteLength(text, encoding);
  if (bytes > maxBytes) throw onTooLarge(bytes);
  return Buffer.from(text, encoding);
}

/** The bytes of base64 or base64url text (MIME line breaks allowed), or undefined when it is not well formed. */
export function decodeWellFormed(text: string, encoding: Exclude<FsEncoding, 'utf8'>): Buffer | undefined {
  const compact = text.replace(WHITESPACE, '');
  return isWellFormed(compact, encoding) ? Buffer.from(compact, encoding) : undefined;
}

function isWellFormed(text: string, encoding: Exclude<FsEncoding, 'utf8'>): boolean {
  if (!ALPHABET[encoding].test(text) || text.length % 4 === 1) return false;
  return !text.endsWith('=') || text.length % 4 === 0;
}

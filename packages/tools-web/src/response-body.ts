import { brotliDecompressSync, gunzipSync, inflateSync, type ZlibOptions } from 'node:zlib';
import { OneClawError } from '@oneclaw/core';

/** How webfetch reads a body: HTML is converted to Markdown, text is passed through. */
export type BodyKind = 'html' | 'text';

export interface ContentType {
  /** Lower-case `type/subtype`; empty when the server sent none. */
  readonly mediaType: string;
  readonly charset: string | undefined;
}

export function parseContentType(header: string | undefined): ContentType {
  const [type = '', ...params] = (header ?? '').split(';');
  const charset = params.map((p) => p.trim().match(/^charset\s*=\s*"?([^";]+)"?$/i)?.[1]).find((c) => c !== undefined);
  return { mediaType: type.trim().toLowerCase(), charset: charset?.trim().toLowerCase() };
}

const TEXT_APPLICATION_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-ndjson',
  'application/markdown',
]);

/**
 * The kind of a body, or undefined when webfetch cannot read it (images, PDF, archives, audio,
 * video, octet streams). Without a Content-Type the bytes decide: markup is HTML, bytes without
 * NUL are text.
 */
export function bodyKind(mediaType: string, body: Uint8Array): BodyKind | undefined {
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType.startsWith('text/') || TEXT_APPLICATION_TYPES.has(mediaType)) return 'text';
  if (mediaType.endsWith('+json') || mediaType.endsWith('+xml')) return 'text';
  if (mediaType !== '') return undefined;
  const head = Buffer.from(body.subarray(0, 1024)).toString('latin1');
  if (/^\s*(<!doctype html|<html|<head|<body)/i.test(head)) return 'html';
  return body.subarray(0, 8192).includes(0) ? undefined : 'text';
}

/**
 * Decodes with the declared charset, or (HTML) a `<meta charset>` near the top, else UTF-8. An
 * unknown charset name falls back to UTF-8 rather than failing: most mislabelled pages are UTF-8.
 */
export function decodeText(body: Uint8Array, declared: string | undefined, kind: BodyKind): string {
  const charset = declared ?? (kind === 'html' ? metaCharset(body) : undefined) ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function metaCharset(body: Uint8Array): string | undefined {
  const head = Buffer.from(body.subarray(0, 2048)).toString('latin1');
  return head.match(/<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_.:-]+)/i)?.[1]?.toLowerCase();
}

/**
 * Undoes a Content-Encoding. webfetch asks for none, but some servers compress anyway; the output is
 * held to `maxBytes` so a small compressed body cannot expand without bound.
 */
export function decodeContentEncoding(body: Buffer, encoding: string | undefined, maxBytes: number, origin: string): Buffer {
  const name = (encoding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return body;
  const options: ZlibOptions = { maxOutputLength: maxBytes };
  try {
    if (name === 'gzip' || name === 'x-gzip') return gunzipSync(body, options);
    if (name === 'deflate') return inflateSync(body, options);
    if (name === 'br') return brotliDecompressSync(body, { maxOutputLength: maxBytes });
  } catch (error) {
    // By code, not instanceof: Node's errors come from another realm under Jest.
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new OneClawError(
        'response_too_large',
        `The page from ${origin} is larger than ${maxBytes / (1024 * 1024)} MB once decompressed; webfetch reads at most that much. ` +
          'Use the browser tool with mode "extract" for very large pages.',
      );
    }
    throw new OneClawError('network_error', `The ${name}-compressed body from ${origin} is corrupt (${(error as Error).message}); retry later.`);
  }
  throw new OneClawError('network_error', `${origin} answered with a body in the unsupported encoding "${name}"; webfetch reads plain, gzip, deflate and br bodies.`);
}

/** What the model should do instead, by the kind of file it found. */
export function unsupportedContentMessage(mediaType: string, url: string): string {
  const what = mediaType === '' ? 'binary data' : `"${mediaType}"`;
  let instead: string;
  if (mediaType.startsWith('image/')) {
    instead = 'To look at an image, call the browser tool with mode "screenshot" on the URL.';
  } else if (mediaType === 'application/pdf') {
    instead =
      'To read a PDF, it must be in the files folder: then load the "pdf" tool group and use pdf_extract_text. ' +
      'Otherwise ask the user to download it, or look for an HTML version of the document.';
  } else {
    instead = 'webfetch reads web pages and text (HTML, plain text, Markdown, JSON, XML) only; look for a page that links to or describes this file.';
  }
  return `${url} is ${what}, which webfetch cannot read as text. ${instead}`;
}

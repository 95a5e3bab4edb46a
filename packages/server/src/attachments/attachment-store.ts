import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, readSync, statSync, utimesSync, writeSync } from 'node:fs';
import path from 'node:path';
import { toWellFormed, type AttachmentRef } from '@oneclaw/core';
import { safeUnlink, syncDirectory } from '../persistence/durable-file';
import { attachmentErrors } from './attachment-errors';
import { extensionOf, sniffMediaType } from './attachment-media-type';

/** Default upload limit: what the model APIs accept in one request leaves room for about this much. */
export const DEFAULT_ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;

const HASH = /^[0-9a-f]{64}$/;

/** The longest file name kept, in characters (code points), as SendMessage's `name` allows. */
const MAX_FILE_NAME_CHARS = 200;

export function isAttachmentHash(value: string): boolean {
  return HASH.test(value);
}

/**
 * The content-addressed store of attached files, outside the event store (docs/decisions/
 * attachment-storage.md): `<dir>/<sha256>` holds the bytes, `<dir>/<sha256>.json` the name it was
 * first uploaded with. A file is written once (temp file, fsync, hard link into place), so a
 * reader never sees half of it, an upload of the same bytes again writes nothing, and replicas
 * sharing the folder cannot corrupt each other. Nothing is ever rewritten or deleted by the server;
 * `oneclaw attachments gc` removes files no message refers to (attachment-gc.ts).
 */
export class AttachmentStore {
  readonly maxBytes: number;

  constructor(
    readonly dir: string,
    options: { readonly maxBytes?: number } = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_ATTACHMENT_MAX_BYTES;
  }

  /** Checks and stores an upload; answers its reference. The media type must match the bytes. */
  put(bytes: Buffer, declared: AttachmentRef['mediaType'], name: string | undefined): AttachmentRef {
    if (bytes.byteLength === 0) throw attachmentErrors.empty();
    if (bytes.byteLength > this.maxBytes) throw attachmentErrors.tooLarge(this.maxBytes);
    const found = sniffMediaType(bytes);
    if (found !== declared) throw attachmentErrors.typeMismatch(declared, found);
    const hash = createHash('sha256').update(bytes).digest('hex');
    const fileName = cleanFileName(name) ?? `attachment.${extensionOf(declared)}`;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // The name first: a blob is never there without it (a crash between leaves only a name).
    const nameFile = path.join(this.dir, `${hash}.json`);
    const named = Buffer.from(JSON.stringify({ name: fileName }));
    writeOnce(nameFile, named);
    writeOnce(this.blobPath(hash), bytes);
    // `oneclaw attachments gc` may have removed the old file and its name meanwhile: name it again.
    if (!existsSync(nameFile)) writeOnce(nameFile, named);
    return { hash, name: fileName, mediaType: declared, bytes: bytes.byteLength };
  }

  /** The stored file's reference (with the name it was first uploaded as), or undefined when it is not there. */
  describe(hash: string): AttachmentRef | undefined {
    if (!isAttachmentHash(hash)) throw attachmentErrors.invalidHash(hash);
    let size: number;
    try {
      size = statSync(this.blobPath(hash)).size;
    } catch {
      return undefined;
    }
    const mediaType = sniffMediaType(readHead(this.blobPath(hash)));
    if (!mediaType) return undefined;
    return { hash, name: this.storedName(hash) ?? `${hash.slice(0, 12)}.${extensionOf(mediaType)}`, mediaType, bytes: size };
  }

  /** The bytes, or undefined when the file is missing (a store deleted or not shared with this replica). */
  read(hash: string): Buffer | undefined {
    if (!isAttachmentHash(hash)) return undefined;
    try {
      return readFileSync(this.blobPath(hash));
    } catch {
      return undefined;
    }
  }

  private blobPath(hash: string): string {
    return path.join(this.dir, hash);
  }

  private storedName(hash: string): string | undefined {
    try {
      const { name } = JSON.parse(readFileSync(path.join(this.dir, `${hash}.json`), 'utf8')) as { name?: unknown };
      return typeof name === 'string' ? cleanFileName(name) : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * A file name as shown and told to the model: its last path part, no control characters, at most
 * 200 characters, well-formed. Cut by code points and with any lone surrogate replaced, since the
 * name goes into a download's Content-Disposition: cut by UTF-16 units, a name of emoji ended in
 * half of one, and as names are written once, that file could never be downloaded.
 */
export function cleanFileName(name: string | undefined): string | undefined {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = Array.from(
    toWellFormed(base)
      .replace(/[\u0000-\u001f\u007f"]/g, '')
      .trim(),
  )
    .slice(0, MAX_FILE_NAME_CHARS)
    .join('');
  return clean === '' || clean === '.' || clean === '..' ? undefined : clean;
}

function readHead(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(1024);
    const read = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Links the written temp file into place, or, when the same bytes are already stored, makes that
 * file young again: uploaded again now, so `oneclaw attachments gc` (attachment-gc.ts) leaves it
 * for its message. If the collection removed it between the two steps, it is linked again.
 */
function linkOrTouch(temp: string, target: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      linkSync(temp, target);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    try {
      const now = new Date();
      utimesSync(target, now, now);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 0) throw error;
    }
  }
}

/** Writes `content` to `target` unless it exists: temp file, fsync, hard link (never replaces), directory fsync. */
function writeOnce(target: string, content: Buffer): void {
  const temp = `${path.dirname(target)}/.tmp-${randomBytes(8).toString('hex')}`;
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      for (let done = 0; done < content.byteLength;) done += writeSync(fd, content, done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkOrTouch(temp, target);
  } finally {
    safeUnlink(temp);
  }
  syncDirectory(path.dirname(target));
}

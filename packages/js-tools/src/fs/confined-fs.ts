import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { confine, isInside, toDisplayPath, type ConfinedTarget } from './confined-path';
import { pendingWrite, type ConfinedWriteStream } from './confined-write-stream';
import { checkEncoding, decodeContent, encodeBytes, type FsEncoding } from './fs-encoding';
import {
  changedDuringCall,
  FsError,
  fromSystemError,
  isSymlink,
  leadsOutside,
  linkLoop,
  notADirectory,
  notAFile,
  notFound,
  quotePath,
  rootNotConfigured,
  tooLargeToRead,
  tooLargeToWrite,
} from './fs-error';
import { holdFolder, O_NOFOLLOW, O_NONBLOCK, readUpTo, withFolder, writeAll, type FolderHandle } from './folder-handle';

export interface ConfinedFsOptions {
  /** The only folder tools may touch. Created if missing. Without it every call fails with root_not_configured (PATH-08). */
  readonly root: string | undefined;
  /** Default 10 MiB. */
  readonly maxReadBytes?: number;
  /** Default 10 MiB, per write; a file grown by append may not exceed it either, nor a stream unless it is given its own limit. */
  readonly maxWriteBytes?: number;
}

export interface FsEntry {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  /** Bytes for files; 0 for everything else. */
  readonly size: number;
}

export const DEFAULT_MAX_FS_BYTES = 10 * 1024 * 1024;

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND } = fs.constants;

/**
 * The files folder behind the sandbox's synchronous `fs` bridge (RELIABILITY B5.1). Paths are checked
 * lexically first (nothing decoded, nothing touched), then against realpath(root): reads need
 * realpath(target) inside, writes need realpath(parent) inside and a final component that is not a link.
 * Files are opened with O_NOFOLLOW inside a folder held open and proven inside the root, so a path swapped
 * for a symbolic link between the check and the open fails closed (PATH-09).
 */
export class ConfinedFs {
  /** realpath of the root; undefined when none was configured. */
  readonly root: string | undefined;
  /** The root as configured, when realpath changed it: absolute input may use either spelling. */
  private readonly alias: string | undefined;
  private readonly maxReadBytes: number;
  private readonly maxWriteBytes: number;

  constructor(options: ConfinedFsOptions) {
    this.maxReadBytes = checkLimit(options.maxReadBytes, 'maxReadBytes');
    this.maxWriteBytes = checkLimit(options.maxWriteBytes, 'maxWriteBytes');
    if (options.root === undefined || options.root.trim() === '') {
      this.root = undefined;
      return;
    }
    const configured = path.resolve(options.root);
    this.root = openRoot(configured);
    this.alias = configured === this.root ? undefined : configured;
  }

  readFile(input: string, encoding?: FsEncoding): string {
    const target = this.fileTarget(input);
    const checked = checkEncoding(encoding);
    return encodeBytes(this.read(target), checked);
  }

  readBytes(input: string): Buffer {
    return this.read(this.fileTarget(input));
  }

  writeFile(input: string, content: string, encoding?: FsEncoding): number {
    const target = this.fileTarget(input);
    return this.write(target, this.decode(target, content, encoding), false);
  }

  writeBytes(input: string, bytes: Uint8Array): number {
    const target = this.fileTarget(input);
    if (!(bytes instanceof Uint8Array)) {
      throw new FsError('invalid_argument', 'Content must be bytes (a Uint8Array).', { path: target.display });
    }
    return this.write(target, bytes, false);
  }

  appendFile(input: string, content: string, encoding?: FsEncoding): number {
    const target = this.fileTarget(input);
    return this.write(target, this.decode(target, content, encoding), true);
  }

  /** False for a missing path; a path outside the root is still refused, never reported as missing. */
  exists(input: string): boolean {
    const target = this.target(input);
    try {
      guarded('check', target.display, () => this.existingReal(target));
      return true;
    } catch (error) {
      if (error instanceof FsError && error.code === 'not_found') return false;
      throw error;
    }
  }

  /** Entries sorted by name; links are reported as links and never followed (PATH-10). */
  list(input = '.'): FsEntry[] {
    const target = this.target(input);
    const root = this.requireRoot();
    return guarded('list', target.display, () => {
      const real = this.existingReal(target);
      if (!fs.statSync(real).isDirectory()) throw notADirectory(target.display);
      return withFolder(root, real, target.display, (folder) => {
        const entries: FsEntry[] = [];
        for (const name of fs.readdirSync(folder.path).sort()) {
          const stat = fs.lstatSync(folder.entry(name), { throwIfNoEntry: false });
          if (stat !== undefined) entries.push({ name, type: entryType(stat), size: stat.isFile() ? stat.size : 0 });
        }
        return entries;
      });
    });
  }

  /** Deletes a file, a link (not its target) or an empty folder; false if nothing was there. */
  delete(input: string): boolean {
    const target = this.target(input);
    const root = this.requireRoot();
    if (target.abs === root) {
      throw new FsError('forbidden', 'The files folder itself cannot be deleted. Delete the entries inside it instead.', { path: '.' });
    }
    return guarded('delete', target.display, () => {
      const folderReal = this.existingFolderFor(target);
      if (folderReal === undefined) return false;
      return withFolder(root, folderReal, target.display, (folder) => {
        const entry = folder.entry(path.basename(target.abs));
        const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
        if (stat === undefined) return false;
        try {
          if (stat.isDirectory()) fs.rmdirSync(entry);
          else fs.unlinkSync(entry);
          return true;
        } catch (error) {
          const errno = (error as NodeJS.ErrnoException).code;
          if (errno === 'ENOENT') return false;
          if (errno === 'ENOTEMPTY' || errno === 'EEXIST') {
            throw new FsError('directory_not_empty', `Folder ${quotePath(target.display)} is not empty. Delete what is inside it first.`, {
              path: target.display,
            });
          }
          throw error;
        }
      });
    });
  }

  /**
   * For streamed downloads: bytes go to a temp file in the target's folder, renamed into place on commit.
   * The caller must end with commit() or abort(); until then the folder stays open. `maxBytes`
   * (default the write limit) lets a download carry its own cap: the fetch bridge's saveTo gives
   * the fetch policy's download limit, since such a file never passes through the sandbox.
   */
  createWriteStream(input: string, options: { readonly maxBytes?: number } = {}): ConfinedWriteStream {
    const maxBytes = options.maxBytes === undefined ? this.maxWriteBytes : checkLimit(options.maxBytes, 'maxBytes');
    const target = this.fileTarget(input);
    const root = this.requireRoot();
    return guarded('create', target.display, () => {
      const folder = holdFolder(root, this.ensureFolderFor(target), target.display);
      try {
        const targetName = path.basename(target.abs);
        refuseLinkOrFolder(folder.entry(targetName), target);
        const tempName = `.oneclaw-${randomBytes(8).toString('hex')}.part`;
        const fd = openNoFollow(folder.entry(tempName), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, target);
        return pendingWrite({
          folder,
          tempName,
          targetName,
          fd,
          display: target.display,
          maxBytes,
          onTooLarge: (bytes) => tooLargeToWrite(target.display, bytes, maxBytes),
        });
      } catch (error) {
        folder.close();
        throw error;
      }
    });
  }

  /**
   * realpath of an existing folder inside the root, for host work that must start there (exec's
   * working directory). The answer is a host path: give it to the host only, never to a tool.
   */
  directory(input = '.'): string {
    const target = this.target(input);
    return guarded('open', target.display, () => {
      const real = this.existingReal(target);
      if (!fs.statSync(real).isDirectory()) throw notADirectory(target.display);
      return real;
    });
  }

  /** Relative display path ('/'-separated, '.' for the root) of a validated target, for messages. */
  displayPath(input: string): string {
    return this.target(input).display;
  }

  private requireRoot(): string {
    if (this.root === undefined) throw rootNotConfigured();
    return this.root;
  }

  private target(input: string): ConfinedTarget {
    return confine(this.requireRoot(), input, this.alias);
  }

  /** A target that can name a file: not the root, and not spelled like a folder. */
  private fileTarget(input: string): ConfinedTarget {
    const target = this.target(input);
    if (target.abs === this.root) throw notAFile(target.display);
    if (target.input.endsWith('/') || target.input.endsWith('/.')) {
      throw new FsError('invalid_path', `Path ${quotePath(target.input)} ends like a folder name. Drop the trailing '/' to name a file.`, {
        path: target.input,
      });
    }
    return target;
  }

  private decode(target: ConfinedTarget, content: unknown, encoding: unknown): Buffer {
    return decodeContent(content, checkEncoding(encoding), (bytes) => tooLargeToWrite(target.display, bytes, this.maxWriteBytes), this.maxWriteBytes);
  }

  private read(target: ConfinedTarget): Buffer {
    const root = this.requireRoot();
    return guarded('read', target.display, () => {
      const real = this.existingReal(target);
      if (real === root) throw notAFile(target.display);
      return withFolder(root, path.dirname(real), target.display, (folder) => {
        const fd = openNoFollow(folder.entry(path.basename(real)), O_RDONLY | O_NOFOLLOW | O_NONBLOCK, target);
        try {
          const stat = fs.fstatSync(fd);
          if (!stat.isFile()) throw notAFile(target.display);
          if (stat.size > this.maxReadBytes) throw tooLargeToRead(target.display, stat.size, this.maxReadBytes);
          const bytes = readUpTo(fd, stat.size, this.maxReadBytes);
          // It grew past the limit after fstat: report the size seen, which is over the limit.
          if (bytes === undefined) throw tooLargeToRead(target.display, this.maxReadBytes + 1, this.maxReadBytes);
          return bytes;
        } finally {
          fs.closeSync(fd);
        }
      });
    });
  }

  private write(target: ConfinedTarget, bytes: Uint8Array, append: boolean): number {
    const root = this.requireRoot();
    const limit = this.maxWriteBytes;
    if (bytes.byteLength > limit) throw tooLargeToWrite(target.display, bytes.byteLength, limit);
    return guarded('write', target.display, () =>
      withFolder(root, this.ensureFolderFor(target), target.display, (folder) => {
        const entry = folder.entry(path.basename(target.abs));
        refuseLinkOrFolder(entry, target);
        // No O_TRUNC: nothing is cut before fstat proved this is a regular file.
        const fd = openNoFollow(entry, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | (append ? O_APPEND : 0), target);
        try {
          const stat = fs.fstatSync(fd);
          if (!stat.isFile()) throw notAFile(target.display);
          if (append && stat.size + bytes.byteLength > limit) throw tooLargeToWrite(target.display, stat.size + bytes.byteLength, limit);
          if (!append) fs.ftruncateSync(fd, 0);
          writeAll(fd, bytes);
          return bytes.byteLength;
        } finally {
          fs.closeSync(fd);
        }
      }),
    );
  }

  /** realpath of `candidate`, refused if outside the root; undefined if it does not exist. */
  private realInside(candidate: string, target: ConfinedTarget): string | undefined {
    let real: string;
    try {
      real = fs.realpathSync.native(candidate);
    } catch (error) {
      const errno = (error as NodeJS.ErrnoException).code;
      if (errno === 'ENOENT' || errno === 'ENOTDIR') return undefined;
      if (errno === 'ELOOP') throw linkLoop(target.display);
      throw error;
    }
    if (!isInside(this.requireRoot(), real)) throw leadsOutside(target.display);
    return real;
  }

  private existingReal(target: ConfinedTarget): string {
    const real = this.realInside(target.abs, target);
    if (real !== undefined) return real;
    this.refuseEscapingAncestor(target);
    throw notFound(target.display);
  }

  /**
   * A missing path below a link that leaves the root is refused, not "not found": otherwise the answer
   * would tell a tool which paths exist outside.
   */
  private refuseEscapingAncestor(target: ConfinedTarget): void {
    const root = this.requireRoot();
    for (let folder = path.dirname(target.abs); folder !== root && isInside(root, folder); folder = path.dirname(folder)) {
      if (this.realInside(folder, target) !== undefined) return;
    }
  }

  /** realpath of the folder holding `target`; undefined if it is missing (or a file stands in its place). */
  private existingFolderFor(target: ConfinedTarget): string | undefined {
    const real = this.realInside(path.dirname(target.abs), target);
    if (real === undefined) this.refuseEscapingAncestor(target);
    return real !== undefined && fs.statSync(real).isDirectory() ? real : undefined;
  }

  /**
   * realpath of the folder holding `target`, creating missing folders one at a time, each through its
   * held parent and each proven a real folder inside the root (PATH-05).
   */
  private ensureFolderFor(target: ConfinedTarget): string {
    const root = this.requireRoot();
    const wanted = path.dirname(target.abs);
    const real = this.realInside(wanted, target);
    if (real !== undefined && fs.statSync(real).isDirectory()) return real;
    let current = root;
    for (const name of path.relative(root, wanted).split(path.sep)) {
      const parent = current;
      current = withFolder(root, parent, toDisplayPath(root, parent), (folder) => this.enterOrCreate(folder, parent, name, target));
    }
    return current;
  }

  private enterOrCreate(folder: FolderHandle, currentReal: string, name: string, target: ConfinedTarget): string {
    const root = this.requireRoot();
    const display = toDisplayPath(root, path.join(currentReal, name));
    const entry = folder.entry(name);
    let real = this.realInside(entry, target);
    if (real === undefined) {
      if (fs.lstatSync(entry, { throwIfNoEntry: false }) !== undefined) throw isSymlink(display);
      try {
        fs.mkdirSync(entry);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw fromSystemError(error, 'create folder', display);
      }
      real = this.realInside(entry, target);
      if (real === undefined) throw changedDuringCall(display);
    }
    if (!fs.statSync(real).isDirectory()) throw notADirectory(display);
    return real;
  }
}

function checkLimit(value: number | undefined, name: string): number {
  if (value === undefined) return DEFAULT_MAX_FS_BYTES;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new FsError('invalid_argument', `${name} must be a whole number of bytes, 0 or more; got ${String(value)}.`, { [name]: value });
  }
  return value;
}

/** Creates the root if missing; errors name no path, since they may end up where tools can read them. */
function openRoot(configured: string): string {
  let real: string;
  try {
    fs.mkdirSync(configured, { recursive: true });
    real = fs.realpathSync.native(configured);
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw new FsError('io_error', `The files folder could not be created or opened (${errno}). Check the configured path and its permissions.`, {
      errno,
    });
  }
  if (!fs.statSync(real).isDirectory()) {
    throw new FsError('not_a_directory', 'The configured files folder is not a folder. Configure the path of a folder.');
  }
  return real;
}

function guarded<T>(action: string, display: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw fromSystemError(error, action, display);
  }
}

/** Checked before the open: a link is refused outright, so O_NOFOLLOW failing later means it was swapped in. */
function refuseLinkOrFolder(entry: string, target: ConfinedTarget): void {
  const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) throw isSymlink(target.display);
  if (stat !== undefined && !stat.isFile()) throw notAFile(target.display);
}

function openNoFollow(entry: string, flags: number, target: ConfinedTarget): number {
  try {
    return fs.openSync(entry, flags, 0o666);
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    if (errno === 'ELOOP' || errno === 'EMLINK') throw changedDuringCall(target.display);
    throw error;
  }
}

function entryType(stat: fs.Stats): FsEntry['type'] {
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'directory';
  return 'other';
}

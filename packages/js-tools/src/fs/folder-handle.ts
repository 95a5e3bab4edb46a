import fs from 'node:fs';
import path from 'node:path';
import { changedDuringCall, fromSystemError, leadsOutside } from './fs-error';
import { isInside } from './confined-path';

// `?? 0`: platforms without a flag get the plain behaviour instead of a crash.
export const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
/** A FIFO planted in the folder must not block a synchronous open forever. */
export const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = fs.constants.O_DIRECTORY ?? 0;

let procFdUsable: boolean | undefined;

/** Linux exposes every open descriptor as a path: the kernel's own answer to "which folder is this?". */
function procFd(): boolean {
  procFdUsable ??= process.platform === 'linux' && fs.existsSync('/proc/self/fd');
  return procFdUsable;
}

/** A folder held open for the length of an operation; `path` addresses names inside it. */
export interface FolderHandle {
  /** On Linux `/proc/self/fd/<n>`: names below it are looked up in the held folder, like openat(2). */
  readonly path: string;
  entry(name: string): string;
  close(): void;
}

/**
 * Opens `realFolder` (a realpath already checked to be inside `root`) without following a final link and
 * proves, from the open descriptor, that it is still inside. Everything done through the handle then stays
 * in that folder even if a folder on the way is swapped for a symbolic link afterwards (PATH-09).
 * Elsewhere than Linux the handle is the plain path: the final-component O_NOFOLLOW check still holds,
 * but a folder swapped mid-call is not caught.
 */
export function holdFolder(root: string, realFolder: string, display: string): FolderHandle {
  if (!procFd()) return plainHandle(realFolder);
  let fd: number;
  try {
    fd = fs.openSync(realFolder, fs.constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    // It was a real folder a moment ago: a link or file in its place now means it was swapped.
    if (errno === 'ENOTDIR' || errno === 'ELOOP') throw changedDuringCall(display);
    throw fromSystemError(error, 'open', display);
  }
  const handlePath = `/proc/self/fd/${fd}`;
  let opened: string;
  try {
    opened = fs.readlinkSync(handlePath);
  } catch (error) {
    fs.closeSync(fd);
    throw fromSystemError(error, 'open', display);
  }
  if (!isInside(root, opened)) {
    fs.closeSync(fd);
    throw leadsOutside(display);
  }
  let open = true;
  return {
    path: handlePath,
    entry: (name) => `${handlePath}/${name}`,
    close: () => {
      if (!open) return;
      open = false;
      fs.closeSync(fd);
    },
  };
}

function plainHandle(folder: string): FolderHandle {
  return { path: folder, entry: (name) => path.join(folder, name), close: () => undefined };
}

export function withFolder<T>(root: string, realFolder: string, display: string, use: (folder: FolderHandle) => T): T {
  const folder = holdFolder(root, realFolder, display);
  try {
    return use(folder);
  } finally {
    folder.close();
  }
}

/** Reads to EOF; undefined once more than `limit` bytes arrived (the file grew after fstat). */
export function readUpTo(fd: number, sizeHint: number, limit: number): Buffer | undefined {
  let buffer = Buffer.allocUnsafe(Math.min(sizeHint, limit) + 1);
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      if (total > limit) return undefined;
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
      buffer.copy(bigger, 0, 0, total);
      buffer = bigger;
    }
    const read = fs.readSync(fd, buffer, total, buffer.length - total, null);
    if (read === 0) return buffer.subarray(0, total);
    total += read;
  }
}

export function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.byteLength) {
    done += fs.writeSync(fd, bytes, done, bytes.byteLength - done, null);
  }
}

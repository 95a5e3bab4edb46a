import { chmodSync, closeSync, fsyncSync, openSync, unlinkSync, writeSync } from 'node:fs';

/**
 * Makes a new directory entry (a file renamed or linked into place) durable; best effort, since
 * not every platform can open a directory (Windows). The file itself must already be fsynced.
 */
export function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not possible everywhere; the file itself was fsynced.
  }
}

/** Removes a temp file if it is still there. */
export function safeUnlink(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** Owner read/write only: files that hold secrets (the API token, the secret store). */
export const OWNER_ONLY = 0o600;

/**
 * Creates `temp` (which must not exist) readable by its owner only, writes `content` whole and
 * fsyncs it: ready to be renamed or linked into place, so no reader ever sees half a file.
 * The temp file is removed when any step fails.
 */
export function writePrivateTemp(temp: string, content: string): void {
  try {
    const fd = openSync(temp, 'wx', OWNER_ONLY);
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, OWNER_ONLY); // the umask can only narrow 0600, but state it exactly
  } catch (error) {
    safeUnlink(temp);
    throw error;
  }
}

/**
 * Narrows a secret file that others may read (`mode` from its stat) to 0600. True when it had
 * to (the caller tells the operator: the secret may have been read). Throws what `refused`
 * makes of the chmod failure. Windows has no such bits.
 */
export function restrictToOwner(file: string, mode: number, refused: (error: Error) => Error): boolean {
  if (process.platform === 'win32' || (mode & 0o077) === 0) return false;
  try {
    chmodSync(file, OWNER_ONLY);
    return true;
  } catch (error) {
    throw refused(error as Error);
  }
}

import { closeSync, fsyncSync, openSync, unlinkSync } from 'node:fs';

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

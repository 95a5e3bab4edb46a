import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { OneClawError } from '@oneclaw/core';

/**
 * ONECLAW_DATA_DIR cannot be used as the data directory: it (or a folder on its path) is a file,
 * or it cannot be created. Start-up stops with this instead of the first mkdir's bare errno.
 */
export class DataDirUnusableError extends OneClawError {
  constructor(dataDir: string, problem: string, fix: string) {
    super('data_dir_unusable', `The data directory ${dataDir} (ONECLAW_DATA_DIR) ${problem}. ${fix}`, { dataDir });
  }
}

/**
 * Creates the data directory if it is missing, and refuses one that cannot hold the store. Runs
 * first at start-up: the API token, the store and the tool folders all live below it.
 */
export function ensureDataDir(dataDir: string): void {
  try {
    // Owner only, as the API token's and the secret store's own mkdir would make it: it holds both.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return;
  } catch (error) {
    throw explain(dataDir, error as NodeJS.ErrnoException);
  }
}

function explain(dataDir: string, error: NodeJS.ErrnoException): DataDirUnusableError {
  const blocker = firstNonDirectory(dataDir);
  const pointElsewhere = 'Set ONECLAW_DATA_DIR to a directory (it is created when missing)';
  if (blocker === dataDir) {
    return new DataDirUnusableError(dataDir, 'is a file, not a directory', `${pointElsewhere}, or move the file out of the way.`);
  }
  if (blocker !== undefined) {
    return new DataDirUnusableError(dataDir, `cannot be created: ${blocker} on its path is a file, not a directory`, `${pointElsewhere} whose parents are directories.`);
  }
  return new DataDirUnusableError(
    dataDir,
    `cannot be created (${error.code ?? error.message})`,
    `Make its parent writable by the server's user, or set ONECLAW_DATA_DIR to another directory.`,
  );
}

/** The data directory itself or the nearest of its parents that exists but is not a directory. */
function firstNonDirectory(dataDir: string): string | undefined {
  const chain: string[] = [];
  for (let dir = dataDir; ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    try {
      if (!statSync(dir).isDirectory()) return dir;
    } catch {
      // Missing from here down: nothing below can be a file.
      return undefined;
    }
  }
  return undefined;
}

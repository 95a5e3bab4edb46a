import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataDirUnusableError, ensureDataDir } from './data-dir';

describe('ensureDataDir', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-data-dir-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('creates a missing data dir and its parents, readable by the owner only; an existing one is kept', () => {
    const dataDir = path.join(root, 'a', 'data');
    ensureDataDir(dataDir);
    expect(statSync(dataDir).isDirectory()).toBe(true);
    if (process.platform !== 'win32') expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    writeFileSync(path.join(dataDir, 'events.db'), 'kept');
    ensureDataDir(dataDir);
    expect(statSync(path.join(dataDir, 'events.db')).size).toBe(4);
  });

  it('a data dir that is a file is data_dir_unusable naming it', () => {
    const file = path.join(root, 'data');
    writeFileSync(file, '');
    const error = capture(() => ensureDataDir(file));
    expect(error).toBeInstanceOf(DataDirUnusableError);
    expect(error).toMatchObject({ code: 'data_dir_unusable', details: { dataDir: file } });
    expect((error as Error).message).toContain(`${file} (ONECLAW_DATA_DIR) is a file, not a directory`);
  });

  it('any other reason it cannot be created is data_dir_unusable with the system code and what to do', () => {
    // A path component over the file-name limit: refused by every file system, root or not.
    const dataDir = path.join(root, 'x'.repeat(300));
    const error = capture(() => ensureDataDir(dataDir));
    expect(error).toMatchObject({ code: 'data_dir_unusable' });
    expect((error as Error).message).toBe(
      `The data directory ${dataDir} (ONECLAW_DATA_DIR) cannot be created (ENAMETOOLONG). Make its parent writable by the server's user, or set ONECLAW_DATA_DIR to another directory.`,
    );
  });
});

function capture(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

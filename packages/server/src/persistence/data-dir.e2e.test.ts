import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The real entry point (main.ts) as a child process, compiled from source by the same swc hook the
// other process tests use, so what is checked is what `pnpm start` prints and how it exits.
const LOADER = path.resolve(__dirname, '../../../../scripts/register-typescript.js');
const MAIN = path.resolve(__dirname, '../main.ts');

interface Exit {
  readonly code: number | null;
  readonly output: string;
}

function startServer(env: Record<string, string>): Promise<Exit> {
  const child = spawn(process.execPath, ['-r', LOADER, MAIN], { env: { ...process.env, PORT: '0', ONECLAW_LOG: 'info', ...env } });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

// Each test starts the server compiled from source (twice in the first): Jest's 5 s default timed
// out on a busy 2-core machine. The budget only bounds a hang; nothing here measures time.
describe('server start with an unusable ONECLAW_DATA_DIR', () => {
  let root: string;

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('a data dir that is a file stops the start with data_dir_unusable saying so and what to do, exit code 1, the file untouched', async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-data-file-'));
    const file = path.join(root, 'data');
    writeFileSync(file, 'not a directory\n');
    // With ONECLAW_API_TOKEN the token file is skipped and the store's mkdir came first (EEXIST);
    // without it the token file's stat did (ENOTDIR). Both starts must say the same.
    for (const tokenEnv of [{ ONECLAW_API_TOKEN: 'data-dir-test-token-0123456789' }, {}] as Array<Record<string, string>>) {
      const exit = await startServer({ ONECLAW_DATA_DIR: file, ...tokenEnv });
      expect(exit.code).toBe(1);
      expect(exit.output).toContain(
        `OneClaw server failed to start [data_dir_unusable]: The data directory ${file} (ONECLAW_DATA_DIR) is a file, not a directory. Set ONECLAW_DATA_DIR to a directory (it is created when missing), or move the file out of the way.`,
      );
      expect(exit.output).not.toMatch(/EEXIST|ENOTDIR|\n\s+at /);
      expect(exit.output).not.toContain('listening on');
    }
    expect(readFileSync(file, 'utf8')).toBe('not a directory\n');
  }, 60_000);

  it('a data dir below a file names that file', async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-data-parent-'));
    const file = path.join(root, 'data');
    writeFileSync(file, '');
    const dataDir = path.join(file, 'nested', 'dir');
    const exit = await startServer({ ONECLAW_DATA_DIR: dataDir });
    expect(exit.code).toBe(1);
    expect(exit.output).toContain(
      `[data_dir_unusable]: The data directory ${dataDir} (ONECLAW_DATA_DIR) cannot be created: ${file} on its path is a file, not a directory. Set ONECLAW_DATA_DIR to a directory (it is created when missing) whose parents are directories.`,
    );
  }, 60_000);
});

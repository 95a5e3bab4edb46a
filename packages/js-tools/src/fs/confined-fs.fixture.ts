import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfinedFs, type ConfinedFsOptions } from './confined-fs';

/**
 * A fresh temp folder per test: `<base>/ws` is the files folder, `<base>/outside` holds what must stay
 * out of reach (`secret.txt`, `sub/secret.txt`), `<base>/ws-evil` is the sibling with a shared prefix.
 */
export interface TempFiles {
  readonly base: string;
  /** realpath of `<base>/ws`. */
  readonly root: string;
  readonly outside: string;
  readonly files: ConfinedFs;
  /** Absolute path of a name inside the root. */
  at(...names: string[]): string;
  cleanup(): void;
}

export const SECRET = 'TOP SECRET host data';

export function tempFiles(options: Omit<ConfinedFsOptions, 'root'> = {}): TempFiles {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-fs-')));
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(outside, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(outside, 'sub', 'secret.txt'), SECRET);
  fs.mkdirSync(path.join(base, 'ws-evil'));
  fs.writeFileSync(path.join(base, 'ws-evil', 'x'), SECRET);
  const files = new ConfinedFs({ root: path.join(base, 'ws'), ...options });
  const root = files.root ?? '';
  return {
    base,
    root,
    outside,
    files,
    at: (...names) => path.join(root, ...names),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** The error code a synchronous call threw; fails the test when it succeeded. */
export function codeOf(run: () => unknown): string {
  return errorOf(run).code;
}

export function errorOf(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return { code: code ?? `untyped: ${message}`, message };
  }
  throw new Error('expected a refusal, but the call succeeded');
}

/** Every name below `folder`, relative and '/'-separated, links not followed: proves nothing was created or left behind. */
export function tree(folder: string, prefix = ''): string[] {
  const names: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const name = `${prefix}${entry.name}`;
    names.push(name);
    if (entry.isDirectory()) names.push(...tree(path.join(folder, entry.name), `${name}/`));
  }
  return names.sort();
}

/** Every public call with a path, so refusals can be shown to hold for all of them. */
export const EVERY_CALL: ReadonlyArray<readonly [string, (files: ConfinedFs, target: string) => unknown]> = [
  ['readFile', (files, target) => files.readFile(target)],
  ['readBytes', (files, target) => files.readBytes(target)],
  ['writeFile', (files, target) => files.writeFile(target, 'x')],
  ['writeBytes', (files, target) => files.writeBytes(target, new Uint8Array([1]))],
  ['appendFile', (files, target) => files.appendFile(target, 'x')],
  ['exists', (files, target) => files.exists(target)],
  ['list', (files, target) => files.list(target)],
  ['delete', (files, target) => files.delete(target)],
  ['createWriteStream', (files, target) => files.createWriteStream(target)],
  ['displayPath', (files, target) => files.displayPath(target)],
];

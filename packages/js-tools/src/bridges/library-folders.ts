import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BridgeError } from '../sandbox/bridge-host';

const LIBRARY_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/i;

/**
 * `lib(name)`: CommonJS libraries from the shipped folder (tools-assets/js/lib) and the user's
 * lib folder. The shipped folder is searched first, so a user file cannot replace a library the
 * built-in tools rely on. Sources are cached and re-read when the file changes.
 */
export class LibraryFolders {
  private readonly cache = new Map<string, { mtimeMs: number; size: number; source: string }>();

  constructor(private readonly folders: readonly string[]) {}

  source(name: string): { fileName: string; source: string } {
    if (!LIBRARY_NAME.test(name) || name.includes('..')) {
      throw new BridgeError('invalid_request', `'${name}' is not a library name (letters, digits, '_', '-', '.').`);
    }
    const fileName = name.endsWith('.js') ? name : `${name}.js`;
    for (const folder of this.folders) {
      const file = path.join(folder, fileName);
      let stat;
      try {
        stat = statSync(file);
      } catch {
        continue;
      }
      if (!stat.isFile()) continue;
      const cached = this.cache.get(file);
      if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return { fileName, source: cached.source };
      const source = readFileSync(file, 'utf8');
      this.cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, source });
      return { fileName, source };
    }
    throw new BridgeError('lib_not_found', `Library '${name}' was not found in the library folders.`);
  }
}

import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A tool file as found on disk: `<base>.json` and, next to it, `<base>.js`. */
export interface ToolFilePair {
  readonly baseName: string;
  /** Undefined when the file does not exist; see `jsonError` / `jsError` for other read failures. */
  readonly json?: string;
  readonly js?: string;
  readonly jsonError?: string;
  readonly jsError?: string;
  /** sha256 of both files as read (read failures included), so any change to either gives a new version. */
  readonly version: string;
}

/**
 * A base name the catalogue accepts: one file name, no folders, not hidden (temp files start with
 * '.'). As a pattern too, so a tool schema can refuse anything else before a name becomes a path.
 */
export const TOOL_BASE_NAME_PATTERN = /^[^./\\\x00][^/\\\x00]*$/;

export function isToolBaseName(baseName: string): boolean {
  return TOOL_BASE_NAME_PATTERN.test(baseName);
}

/** Reads both files of a pair; never throws. */
export function readToolFilePair(folderPath: string, baseName: string): ToolFilePair {
  const json = readText(join(folderPath, `${baseName}.json`));
  const js = readText(join(folderPath, `${baseName}.js`));
  const version = createHash('sha256')
    .update(json.text ?? `\0missing:${json.error ?? ''}`)
    .update('\0')
    .update(js.text ?? `\0missing:${js.error ?? ''}`)
    .digest('hex');
  return {
    baseName,
    ...(json.text !== undefined ? { json: json.text } : {}),
    ...(js.text !== undefined ? { js: js.text } : {}),
    ...(json.error !== undefined ? { jsonError: json.error } : {}),
    ...(js.error !== undefined ? { jsError: js.error } : {}),
    version,
  };
}

/**
 * The base names of the manifests in a folder, sorted, so loading order (and with it the
 * registry's order) does not depend on the file system. A missing folder has none; any other
 * read failure throws.
 */
export function listManifestBaseNames(folderPath: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folderPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter(isToolBaseName)
    .sort();
}

function readText(filePath: string): { text?: string; error?: string } {
  try {
    // A byte-order mark (editors on Windows add one) would make JSON.parse fail.
    return { text: readFileSync(filePath, 'utf8').replace(/^\uFEFF/, '') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    return { error: code ?? (error instanceof Error ? error.message : String(error)) };
  }
}

import path from 'node:path';
import { FsError, outsideRoot, quotePath } from './fs-error';

/** PATH_MAX on Linux; longer input is refused before any system call sees it. */
export const MAX_PATH_BYTES = 4096;

/** A tool-supplied path that passed the lexical checks: `abs` is normalised and lies under the root. */
export interface ConfinedTarget {
  /** The text the tool gave. */
  readonly input: string;
  /** Absolute, normalised, below (or equal to) the real root; never shown to tools. */
  readonly abs: string;
  /** Relative to the root, '/'-separated, '.' for the root itself: the only form messages use. */
  readonly display: string;
}

// C0 controls and DEL (NUL included): never part of a sensible file name, and they can forge log lines.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function invalid(message: string, input?: string): FsError {
  return new FsError('invalid_path', message, input === undefined ? {} : { path: input });
}

/**
 * Refuses input that must never reach the disk. Nothing is decoded: '%2e%2e' stays a literal name.
 * Backslashes are refused outright rather than treated as names, so '..\\..\\x' means the same nowhere.
 */
export function checkPathSyntax(input: unknown): string {
  if (typeof input !== 'string') {
    throw invalid(`A path must be a string, not ${input === null ? 'null' : typeof input}. Give a path relative to the files folder.`);
  }
  if (input.length === 0) {
    throw invalid("The path is empty. Give a path relative to the files folder, such as 'notes/today.txt', or '.' for the folder itself.");
  }
  const bytes = Buffer.byteLength(input, 'utf8');
  if (bytes > MAX_PATH_BYTES) {
    throw invalid(`The path is ${bytes} bytes long, over the ${MAX_PATH_BYTES}-byte limit. Use a shorter path.`);
  }
  if (CONTROL_CHARACTER.test(input)) {
    throw invalid(`Path ${quotePath(input)} contains a control character (such as NUL or a line break). Remove it.`, input);
  }
  if (LONE_SURROGATE.test(input)) {
    throw invalid(`Path ${quotePath(input)} is not valid Unicode text. Use a plain file name.`, input);
  }
  if (input.includes('\\')) {
    throw invalid(`Path ${quotePath(input)} contains a backslash. Separate folders with '/'.`, input);
  }
  return input;
}

/** `candidate` is `root` or below it. path.relative, not startsWith: '/data/ws-evil' is not under '/data/ws'. */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  if (rel === '') return true;
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

export function toDisplayPath(root: string, abs: string): string {
  const rel = path.relative(root, abs);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

/**
 * Resolves `input` against `root` lexically. Absolute input is kept only when it already lies under
 * the root (or under `alias`, the root as configured before realpath, and is then re-based).
 */
export function confine(root: string, input: unknown, alias?: string): ConfinedTarget {
  const text = checkPathSyntax(input);
  let abs = path.resolve(root, text);
  if (!isInside(root, abs) && alias !== undefined && path.isAbsolute(text) && isInside(alias, abs)) {
    abs = path.join(root, path.relative(alias, abs));
  }
  if (!isInside(root, abs)) throw outsideRoot(text);
  return { input: text, abs, display: toDisplayPath(root, abs) };
}

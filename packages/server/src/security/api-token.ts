import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { OneClawError } from '@oneclaw/core';
import { restrictToOwner, safeUnlink, syncDirectory, writePrivateTemp } from '../persistence/durable-file';

/** Name of the token file inside the data directory. */
export const API_TOKEN_FILE = 'api-token';

/** Shorter tokens are guessable; a generated one is 43 characters (32 random bytes, base64url). */
export const MIN_API_TOKEN_LENGTH = 16;

/** Visible ASCII only: the token travels in an HTTP header and a URL query. */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

export interface ApiTokenResult {
  readonly token: string;
  /** True when this call generated the token: print it once so the user can sign in. */
  readonly created: boolean;
  /** Where the token lives (or would live, when it came from ONECLAW_API_TOKEN). */
  readonly file: string;
  readonly source: 'env' | 'file' | 'generated';
  /**
   * True when the file was readable by group or others and has been narrowed to 0600. Log a
   * warning: the token may have been read already; deleting the file makes a new one.
   */
  readonly permissionsFixed: boolean;
}

export interface ApiTokenOptions {
  /** ONECLAW_API_TOKEN; wins over the file when set. */
  readonly envToken?: string | undefined;
}

/**
 * The token every API call must bring (API-06). Order: ONECLAW_API_TOKEN, then `<dataDir>/api-token`,
 * else a new random token written there with mode 0600.
 *
 * An existing file readable by group/others is fixed (chmod 0600) rather than refused: refusing
 * would stop the server over a `cp` with a loose umask, while the caller can still warn (see
 * `permissionsFixed`). If the mode cannot be changed (read-only mount), start-up fails with
 * `invalid_config`. Mode checks are skipped on Windows, which has no POSIX modes.
 *
 * Synchronous on purpose: it runs once at start-up, before anything listens, and fits a Nest
 * `useValue`. Wiring (main.ts):
 *   const apiToken = loadOrCreateApiToken(config.dataDir, { envToken: config.apiToken });
 *   redactor.add(apiToken.token);
 *   if (apiToken.created) console.log(`API token (saved in ${apiToken.file}): ${apiToken.token}`);
 * and provide `{ provide: API_TOKEN, useValue: apiToken.token }` in AppModule.
 */
export function loadOrCreateApiToken(dataDir: string, options: ApiTokenOptions = {}): ApiTokenResult {
  const file = path.join(dataDir, API_TOKEN_FILE);
  if (options.envToken !== undefined) {
    return {
      token: checkedToken(options.envToken, 'ONECLAW_API_TOKEN', 'Set it to at least 16 random characters, e.g. `openssl rand -base64 32`.'),
      created: false,
      file,
      source: 'env',
      permissionsFixed: false,
    };
  }
  const existing = readTokenFile(file);
  if (existing !== undefined) return { ...existing, created: false, file, source: 'file' };
  return createTokenFile(dataDir, file);
}

/**
 * Constant-time token comparison. Hashing first gives both sides the same length, so neither the
 * comparison nor an early length check tells an attacker how long the real token is.
 */
export function tokensEqual(presented: string, expected: string): boolean {
  return timingSafeEqual(sha256(presented), expectedDigest(expected));
}

/** The expected token's digest, kept: every request is checked against the same token (twice: auth and rate limit). */
let expected: { readonly token: string; readonly digest: Buffer } | undefined;

function expectedDigest(token: string): Buffer {
  if (expected?.token !== token) expected = { token, digest: sha256(token) };
  return expected.digest;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function checkedToken(raw: string, origin: string, fix: string): string {
  const token = raw.trim();
  if (token.length < MIN_API_TOKEN_LENGTH || !TOKEN_CHARS.test(token)) {
    throw new OneClawError('invalid_config', `${origin} must be at least ${MIN_API_TOKEN_LENGTH} visible ASCII characters without spaces (got ${token.length}). ${fix}`, {
      minLength: MIN_API_TOKEN_LENGTH,
    });
  }
  return token;
}

function readTokenFile(file: string): { token: string; permissionsFixed: boolean } | undefined {
  let mode: number;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) throw ioError(file, 'is not a regular file', 'Remove it so a token can be generated');
    mode = stats.mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error instanceof OneClawError ? error : ioError(file, (error as Error).message, 'Check ONECLAW_DATA_DIR');
  }
  const permissionsFixed = restrictToOwner(file, mode, (error) =>
    ioError(
      file,
      `is readable by other users (mode ${(mode & 0o777).toString(8)}) and cannot be restricted: ${error.message}`,
      'Run `chmod 600` on it, or set ONECLAW_API_TOKEN instead',
    ),
  );
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    throw ioError(file, (error as Error).message, 'Make it readable by the server user');
  }
  const token = checkedToken(content, `The API token file ${file}`, 'Delete the file to have a new token generated.');
  return { token, permissionsFixed };
}

function createTokenFile(dataDir: string, file: string): ApiTokenResult {
  const token = randomBytes(32).toString('base64url');
  const temp = path.join(dataDir, `.${API_TOKEN_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // Written whole to a private temp file first, so no reader ever sees a partial token.
    writePrivateTemp(temp, `${token}\n`);
  } catch (error) {
    safeUnlink(temp);
    throw ioError(file, `cannot be written: ${(error as Error).message}`, 'Make ONECLAW_DATA_DIR writable, or set ONECLAW_API_TOKEN');
  }
  if (!publish(temp, file)) {
    // Another process started at the same moment and won: use its token, not ours.
    const existing = readTokenFile(file);
    if (existing !== undefined) return { ...existing, created: false, file, source: 'file' };
  }
  syncDirectory(dataDir);
  return { token, created: true, file, source: 'generated', permissionsFixed: false };
}

/**
 * Moves the temp file into place only if no token file exists yet. link() fails on an existing
 * target, unlike rename(), which would silently replace a token another process just printed.
 * Filesystems without hard links fall back to rename. Returns false when a file was already there.
 */
function publish(temp: string, file: string): boolean {
  try {
    linkSync(temp, file);
    safeUnlink(temp);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      safeUnlink(temp);
      return false;
    }
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EXDEV') {
      try {
        renameSync(temp, file);
        return true;
      } catch (renameError) {
        safeUnlink(temp);
        throw ioError(file, `cannot be written: ${(renameError as Error).message}`, 'Make ONECLAW_DATA_DIR writable, or set ONECLAW_API_TOKEN');
      }
    }
    safeUnlink(temp);
    throw ioError(file, `cannot be written: ${(error as Error).message}`, 'Make ONECLAW_DATA_DIR writable, or set ONECLAW_API_TOKEN');
  }
}

function ioError(file: string, problem: string, fix: string): OneClawError {
  return new OneClawError('invalid_config', `The API token file ${file} ${problem}. ${fix}.`, { file });
}

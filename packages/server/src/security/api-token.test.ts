import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { OneClawError } from '@oneclaw/core';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_TOKEN_FILE, loadOrCreateApiToken, tokensEqual } from './api-token';

const posix = process.platform !== 'win32';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'oneclaw-token-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function errorOf(fn: () => unknown): OneClawError {
  try {
    fn();
  } catch (error) {
    if (error instanceof OneClawError) return error;
    throw error;
  }
  throw new Error('expected a OneClawError');
}

describe('loadOrCreateApiToken (API-06)', () => {
  it('API-06 creates a random token once, mode 0600, in a data dir it creates, and reuses it', () => {
    const dataDir = path.join(root, 'nested', 'data');
    const first = loadOrCreateApiToken(dataDir);
    expect(first).toMatchObject({ created: true, source: 'generated', file: path.join(dataDir, API_TOKEN_FILE) });
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(first.file, 'utf8').trim()).toBe(first.token);
    if (posix) expect(statSync(first.file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual([API_TOKEN_FILE]); // no temp file left behind

    const second = loadOrCreateApiToken(dataDir);
    expect(second).toMatchObject({ token: first.token, created: false, source: 'file', permissionsFixed: false });

    const other = loadOrCreateApiToken(path.join(root, 'other'));
    expect(other.token).not.toBe(first.token);
  });

  it('API-06 uses ONECLAW_API_TOKEN over the file and writes nothing', () => {
    const envToken = 'a-configured-token-0123456789';
    const result = loadOrCreateApiToken(root, { envToken: `  ${envToken}\n` });
    expect(result).toMatchObject({ token: envToken, created: false, source: 'env' });
    expect(existsSync(path.join(root, API_TOKEN_FILE))).toBe(false);
  });

  it('API-06 rejects a too-short env token with invalid_config and does not echo it', () => {
    const error = errorOf(() => loadOrCreateApiToken(root, { envToken: 'short-secret' }));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain('ONECLAW_API_TOKEN');
    expect(error.message).not.toContain('short-secret');
    expect(errorOf(() => loadOrCreateApiToken(root, { envToken: 'has a space in the middle' })).code).toBe('invalid_config');
  });

  it('rejects a token file that is too short, telling to delete it', () => {
    writeFileSync(path.join(root, API_TOKEN_FILE), 'tiny\n', { mode: 0o600 });
    const error = errorOf(() => loadOrCreateApiToken(root));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toMatch(/Delete the file/);
  });

  (posix ? it : it.skip)('narrows a group/world-readable token file to 0600 and says so', () => {
    const file = path.join(root, API_TOKEN_FILE);
    writeFileSync(file, 'a-token-written-by-hand-123\n');
    chmodSync(file, 0o644);
    const result = loadOrCreateApiToken(root);
    expect(result).toMatchObject({ token: 'a-token-written-by-hand-123', created: false, permissionsFixed: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('tokensEqual', () => {
  it('is true only for identical tokens, whatever the lengths', () => {
    expect(tokensEqual('same-token-value-1', 'same-token-value-1')).toBe(true);
    expect(tokensEqual('same-token-value-1', 'same-token-value-2')).toBe(false);
    expect(tokensEqual('same-token-value-1', 'same-token-value-1x')).toBe(false);
    expect(tokensEqual('', 'x')).toBe(false);
  });

  it('follows a change of the expected token (its digest is kept between calls)', () => {
    expect(tokensEqual('first-expected-token', 'first-expected-token')).toBe(true);
    expect(tokensEqual('second-expected-token', 'second-expected-token')).toBe(true);
    expect(tokensEqual('first-expected-token', 'second-expected-token')).toBe(false);
  });
});

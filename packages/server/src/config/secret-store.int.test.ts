import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SECRETS_FILE, SecretStore } from './secret-store';

let dir: string;
const modeOf = (file: string) => statSync(file).mode & 0o777;
const posix = process.platform !== 'win32';

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-secrets-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('SecretStore (data/secrets.json)', () => {
  it('starts empty without a file, and writes nothing until a secret is stored', () => {
    const store = SecretStore.open(dir);
    expect(store.values()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stores keys and values with the id of their event, in a 0600 file, replaced whole (no temp file left)', () => {
    const store = SecretStore.open(dir);
    store.setProviderApiKey('p1', { value: 'sk-provider-key-123456', eventId: 'c1:0' });
    store.setEnvVar('GITHUB_TOKEN', { value: 'ghp_value_abcdef', eventId: 'c2:0' });
    const file = path.join(dir, SECRETS_FILE);
    if (posix) expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(dir)).toEqual([SECRETS_FILE]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      providerApiKeys: { p1: { value: 'sk-provider-key-123456', eventId: 'c1:0' } },
      envVars: { GITHUB_TOKEN: { value: 'ghp_value_abcdef', eventId: 'c2:0' } },
    });
    const reopened = SecretStore.open(dir);
    expect(reopened.providerApiKey('p1')).toEqual({ value: 'sk-provider-key-123456', eventId: 'c1:0' });
    expect(reopened.envVar('GITHUB_TOKEN')?.value).toBe('ghp_value_abcdef');
    expect(reopened.values().sort()).toEqual(['ghp_value_abcdef', 'sk-provider-key-123456']);
  });

  it('removes an entry when given undefined', () => {
    const store = SecretStore.open(dir);
    store.setEnvVar('A', { value: 'value-aaaaaa', eventId: 'e:0' });
    store.setEnvVar('A', undefined);
    store.setProviderApiKey('p', undefined);
    expect(SecretStore.open(dir).values()).toEqual([]);
  });

  it('names that objects inherit (__proto__, toString) are entries like any other: absent until stored, kept across a reopen', () => {
    const store = SecretStore.open(dir);
    for (const name of ['__proto__', 'toString', 'constructor', 'valueOf', 'hasOwnProperty']) {
      expect(store.envVar(name)).toBeUndefined();
      expect(store.providerApiKey(name)).toBeUndefined();
    }
    store.setEnvVar('__proto__', { value: 'proto-value-0001', eventId: 'e1:0' });
    store.setEnvVar('toString', { value: 'tostring-value-0002', eventId: 'e2:0' });
    const reopened = SecretStore.open(dir);
    expect(reopened.envVar('__proto__')).toEqual({ value: 'proto-value-0001', eventId: 'e1:0' });
    expect(reopened.envVar('toString')).toEqual({ value: 'tostring-value-0002', eventId: 'e2:0' });
    reopened.setEnvVar('__proto__', undefined);
    expect(SecretStore.open(dir).values()).toEqual(['tostring-value-0002']);
  });

  (posix ? it : it.skip)('narrows a file readable by others to 0600 and says so', () => {
    SecretStore.open(dir).setEnvVar('A', { value: 'value-aaaaaa', eventId: 'e:0' });
    const file = path.join(dir, SECRETS_FILE);
    chmodSync(file, 0o644);
    const store = SecretStore.open(dir);
    expect(store.permissionsFixed).toBe(true);
    expect(modeOf(file)).toBe(0o600);
    expect(store.envVar('A')?.value).toBe('value-aaaaaa');
  });

  it('a damaged or foreign file stops the start with invalid_config naming the file', () => {
    const file = path.join(dir, SECRETS_FILE);
    writeFileSync(file, '{ not json', { mode: 0o600 });
    expect(() => SecretStore.open(dir)).toThrow(expect.objectContaining({ code: 'invalid_config', message: expect.stringContaining(file) }));
    writeFileSync(file, JSON.stringify({ version: 1, providerApiKeys: { p: 'bare-string' }, envVars: {} }), { mode: 0o600 });
    expect(() => SecretStore.open(dir)).toThrow(expect.objectContaining({ code: 'invalid_config' }));
  });

  it('a write that fails is secret_store_unavailable and keeps what the store held', () => {
    const home = path.join(dir, 'data');
    const store = SecretStore.open(home);
    store.setEnvVar('A', { value: 'value-aaaaaa', eventId: 'e:0' });
    // The data directory is replaced by a plain file: nothing can be written into it any more.
    rmSync(home, { recursive: true });
    writeFileSync(home, 'not a directory');
    expect(() => store.setEnvVar('B', { value: 'value-bbbbbb', eventId: 'e2:0' })).toThrow(expect.objectContaining({ code: 'secret_store_unavailable' }));
    expect(store.envVar('B')).toBeUndefined();
    expect(store.envVar('A')?.value).toBe('value-aaaaaa');
  });
});

import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InMemoryEventStore, OneClawError, type AppendResult } from '@oneclaw/core';
import { HeldAppendsStore, settle } from '../testing/held-appends-store';
import { configFixture, type ConfigFixture } from './config.fixture';
import { SECRETS_FILE } from './secret-store';

const VALUE = 'ghp_secret_value_0123456789';
let fixture: ConfigFixture;
afterEach(() => fixture.cleanup());

describe('EnvVarService (manage_env_var): values write-only, never in events', () => {
  it('a value set is given to tools at once, known to the redactor, kept in the secret file, and only its name is recorded', async () => {
    fixture = configFixture();
    const { envVars } = fixture.services;
    expect(await envVars.set('GITHUB_TOKEN', VALUE)).toEqual({ overridesEnvironment: false });
    expect(envVars.toolEnv()).toEqual({ GITHUB_TOKEN: VALUE });
    expect(fixture.redactor.redactText(`token ${VALUE}`)).toBe('token [Redacted]');
    expect(readFileSync(path.join(fixture.dataDir, SECRETS_FILE), 'utf8')).toContain(VALUE);
    const events = await fixture.store.readStream('config');
    expect(events.map((e) => [e.type, e.data])).toEqual([['EnvVarSet', { name: 'GITHUB_TOKEN' }]]);
    expect(JSON.stringify(events)).not.toContain(VALUE);
    expect(await envVars.list()).toEqual([{ name: 'GITHUB_TOKEN', source: 'configuration', valueAvailable: true }]);
  });

  it('a variable set here wins over ONECLAW_ENV_ of the same name; deleting it brings the environment one back', async () => {
    fixture = configFixture({ env: { ONECLAW_ENV_API_HOST: 'env-host.example', ONECLAW_ENV_OTHER: 'other-value' } });
    const { envVars } = fixture.services;
    expect(envVars.toolEnv()).toEqual({ API_HOST: 'env-host.example', OTHER: 'other-value' });
    expect(await envVars.set('API_HOST', 'configured-host.example')).toEqual({ overridesEnvironment: true });
    expect(envVars.toolEnv()).toEqual({ API_HOST: 'configured-host.example', OTHER: 'other-value' });
    expect(await envVars.list()).toEqual([
      { name: 'API_HOST', source: 'configuration', valueAvailable: true, overridesEnvironment: true },
      { name: 'OTHER', source: 'environment', valueAvailable: true },
    ]);
    expect(await envVars.delete('API_HOST')).toEqual({ environmentValueRemains: true });
    expect(envVars.toolEnv()).toEqual({ API_HOST: 'env-host.example', OTHER: 'other-value' });
    await expect(envVars.delete('OTHER')).rejects.toMatchObject({ code: 'read_only', message: expect.stringContaining('ONECLAW_ENV_OTHER') });
  });

  it('names that objects inherit (__proto__, constructor, toString, valueOf, hasOwnProperty) are variables like any other', async () => {
    const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf'];
    fixture = configFixture({ env: { ONECLAW_ENV___proto__: 'env-proto-value-0000' } });
    const { envVars } = fixture.services;
    expect(Object.entries(envVars.toolEnv())).toEqual([['__proto__', 'env-proto-value-0000']]);
    // Never set here, and not in the environment: not_found, not read_only.
    await expect(envVars.delete('valueOf')).rejects.toMatchObject({ code: 'not_found' });
    for (const name of names) expect(await envVars.set(name, `value-of-${name}`)).toEqual({ overridesEnvironment: name === '__proto__' });
    expect(await envVars.list()).toEqual(
      names.map((name) => ({ name, source: 'configuration', valueAvailable: true, ...(name === '__proto__' ? { overridesEnvironment: true } : {}) })),
    );
    const env = envVars.toolEnv();
    expect(names.map((name) => [name, Object.hasOwn(env, name) ? env[name] : 'missing'])).toEqual(names.map((name) => [name, `value-of-${name}`]));
    expect(await envVars.delete('constructor')).toEqual({ environmentValueRemains: false });
    expect(await envVars.delete('__proto__')).toEqual({ environmentValueRemains: true });
    expect(Object.entries(envVars.toolEnv()).sort()).toEqual([
      ['__proto__', 'env-proto-value-0000'],
      ['hasOwnProperty', 'value-of-hasOwnProperty'],
      ['toString', 'value-of-toString'],
      ['valueOf', 'value-of-valueOf'],
    ]);
  });

  it('bad names and values are refused and nothing is kept', async () => {
    fixture = configFixture();
    const { envVars } = fixture.services;
    await expect(envVars.set('1BAD', VALUE)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(envVars.set('GOOD', '')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(envVars.set('GOOD', 'x'.repeat(16_385))).rejects.toMatchObject({ code: 'validation_error' });
    await expect(envVars.delete('MISSING')).rejects.toMatchObject({ code: 'not_found' });
    expect(envVars.toolEnv()).toEqual({});
    expect(await fixture.store.readStream('config')).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(fixture.dataDir, SECRETS_FILE), 'utf8')).envVars).toEqual({});
  });

  it('when the event cannot be recorded, the value stored just before is taken back', async () => {
    class StoreDown extends InMemoryEventStore {
      override append(): Promise<AppendResult> {
        return Promise.reject(new OneClawError('storage_unavailable', 'The store is down.'));
      }
    }
    fixture = configFixture({ store: new StoreDown() });
    await expect(fixture.services.envVars.set('TOKEN', VALUE)).rejects.toMatchObject({ code: 'storage_unavailable' });
    expect(readFileSync(path.join(fixture.dataDir, SECRETS_FILE), 'utf8')).not.toContain(VALUE);
    expect(fixture.services.envVars.toolEnv()).toEqual({});
  });

  it('a DELETE decided while a PUT of the same variable is under way does not take the PUT\u2019s new value with it', async () => {
    const store = new HeldAppendsStore();
    fixture = configFixture({ store });
    const { envVars } = fixture.services;
    await envVars.set('TOKEN', 'first-value-0001');
    const deleteAppend = store.holdNext();
    const setAppend = store.holdNext();
    // The delete is decided and on its way to the store when the PUT comes in; the PUT goes as far as it can.
    const deleting = envVars.delete('TOKEN');
    await deleteAppend.reached;
    const setting = envVars.set('TOKEN', 'second-value-0002');
    await settle();
    deleteAppend.release();
    await deleting;
    setAppend.release();
    await setting;
    // The PUT came last: the stream says set, and this server has the value it set.
    expect((await store.readStream('config')).map((e) => e.type)).toEqual(['EnvVarSet', 'EnvVarDeleted', 'EnvVarSet']);
    expect(await envVars.list()).toEqual([{ name: 'TOKEN', source: 'configuration', valueAvailable: true }]);
    expect(envVars.toolEnv()).toEqual({ TOKEN: 'second-value-0002' });
  });

  it('a late retry of a set or a delete (same command id) that a newer set has overtaken leaves the newer value in use', async () => {
    fixture = configFixture();
    const { envVars } = fixture.services;
    await envVars.set('TOKEN', 'old-value-0001', { commandId: 'k1' });
    await envVars.set('TOKEN', 'new-value-0002', { commandId: 'k2' });
    await envVars.set('TOKEN', 'old-value-0001', { commandId: 'k1' });
    expect((await fixture.store.readStream('config')).map((e) => e.type)).toEqual(['EnvVarSet', 'EnvVarSet']);
    expect(await envVars.list()).toEqual([{ name: 'TOKEN', source: 'configuration', valueAvailable: true }]);
    expect(envVars.toolEnv()).toEqual({ TOKEN: 'new-value-0002' });

    await envVars.delete('TOKEN', { commandId: 'd1' });
    await envVars.set('TOKEN', 'newest-value-0003', { commandId: 'k3' });
    await envVars.delete('TOKEN', { commandId: 'd1' });
    expect((await fixture.store.readStream('config')).map((e) => e.type)).toEqual(['EnvVarSet', 'EnvVarSet', 'EnvVarDeleted', 'EnvVarSet']);
    expect(envVars.toolEnv()).toEqual({ TOKEN: 'newest-value-0003' });
  });

  it('on another replica a variable set elsewhere is listed without a value; a stale local value is not handed to tools', async () => {
    fixture = configFixture();
    const replica = fixture.replica();
    try {
      await replica.services.envVars.set('TOKEN', 'replica-old-value-1');
      await fixture.services.envVars.set('TOKEN', VALUE);
      expect(await replica.services.envVars.list()).toEqual([{ name: 'TOKEN', source: 'configuration', valueAvailable: false }]);
      expect(replica.services.envVars.toolEnv()).toEqual({});
      expect(fixture.services.envVars.toolEnv()).toEqual({ TOKEN: VALUE });
    } finally {
      replica.cleanup();
    }
  });

  it('values set before a restart are given to tools and known to the redactor after it', async () => {
    fixture = configFixture();
    await fixture.services.envVars.set('TOKEN', VALUE);
    const restarted = configFixture({ store: fixture.store, dataDir: fixture.dataDir });
    try {
      await restarted.services.repository.load();
      expect(restarted.services.envVars.toolEnv()).toEqual({ TOKEN: VALUE });
      expect(restarted.redactor.containsSecret(VALUE)).toBe(true);
    } finally {
      restarted.cleanup();
    }
  });
});

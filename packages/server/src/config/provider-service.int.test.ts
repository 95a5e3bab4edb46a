import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HeldAppendsStore, settle } from '../testing/held-appends-store';
import { configFixture, type ConfigFixture } from './config.fixture';
import { SECRETS_FILE } from './secret-store';

const ENV = { ANTHROPIC_API_KEY: 'sk-ant-environment-key-000', ONECLAW_MODEL: 'claude-env' };
const KEY = 'sk-configured-provider-key-42';

let fixture: ConfigFixture;
afterEach(() => fixture.cleanup());

const stream = async (f: ConfigFixture) => JSON.stringify(await f.store.readStream('config'));

describe('ProviderService', () => {
  it('shows the environment provider as env, read-only, with where its key comes from (never the key)', async () => {
    fixture = configFixture({ env: ENV });
    const { providers } = fixture.services;
    const list = await providers.list();
    expect(list).toEqual({
      providers: [
        {
          providerId: 'env',
          name: 'Environment (ANTHROPIC)',
          kind: 'anthropic',
          apiBaseUrl: 'https://api.anthropic.com',
          isActive: true,
          definedBy: 'environment',
          apiKey: 'from_environment',
          keyVariable: 'ANTHROPIC_API_KEY',
        },
      ],
      defaultModel: null,
    });
    for (const attempt of [
      () => providers.update('env', { name: 'x' }),
      () => providers.delete('env'),
      () => providers.setApiKey('env', 'sk-other-key-123456'),
      () => providers.removeApiKey('env'),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: 'read_only', message: expect.stringContaining('ANTHROPIC_API_KEY') });
    }
    expect(await fixture.store.readStream('config')).toEqual([]);
  });

  it('without an environment provider, env is provider_not_found like any unknown id', async () => {
    fixture = configFixture();
    await expect(fixture.services.providers.update('env', { name: 'x' })).rejects.toMatchObject({ code: 'provider_not_found' });
    await expect(fixture.services.providers.models('env')).rejects.toMatchObject({ code: 'provider_not_found' });
    await expect(fixture.services.providers.models('nope')).rejects.toMatchObject({ code: 'provider_not_found' });
  });

  it('a key set through the service is in the secret file, known to the redactor, and absent from every event', async () => {
    fixture = configFixture();
    const { providers } = fixture.services;
    const created = await providers.create({ name: 'OpenRouter', kind: 'openai', apiBaseUrl: 'https://openrouter.ai/api/v1' });
    expect(created).toMatchObject({ definedBy: 'configuration', apiKey: 'not_set', isActive: true });
    await providers.setApiKey(created.providerId, KEY);
    expect((await providers.list()).providers[0]?.apiKey).toBe('set');
    expect(fixture.redactor.redactText(`key=${KEY}`)).toBe('key=[Redacted]');
    expect(readFileSync(path.join(fixture.dataDir, SECRETS_FILE), 'utf8')).toContain(KEY);
    const events = await fixture.store.readStream('config');
    expect(events.map((e) => e.type)).toEqual(['ProviderCreated', 'ProviderApiKeySet']);
    expect(events[1]?.data).toEqual({ providerId: created.providerId });
    expect(await stream(fixture)).not.toContain(KEY);

    await providers.removeApiKey(created.providerId);
    expect((await providers.list()).providers[0]?.apiKey).toBe('not_set');
    expect(readFileSync(path.join(fixture.dataDir, SECRETS_FILE), 'utf8')).not.toContain(KEY);
  });

  it('a bad key is validation_error and nothing is stored or recorded', async () => {
    fixture = configFixture();
    const { providerId } = await fixture.services.providers.create({ name: 'P', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:1/v1' });
    await expect(fixture.services.providers.setApiKey(providerId, 'has spaces in it')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(fixture.services.providers.setApiKey('nope', KEY)).rejects.toMatchObject({ code: 'provider_not_found' });
    expect((await fixture.store.readStream('config')).map((e) => e.type)).toEqual(['ProviderCreated']);
  });

  it('a key removal decided while a new key is being stored does not take the new key with it', async () => {
    const store = new HeldAppendsStore();
    fixture = configFixture({ store });
    const { providers } = fixture.services;
    const { providerId } = await providers.create({ name: 'P', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:1/v1' });
    await providers.setApiKey(providerId, 'sk-first-key-0001');
    const removeAppend = store.holdNext();
    const setAppend = store.holdNext();
    // The removal is decided and on its way to the store when the new key comes in; storing it goes as far as it can.
    const removing = providers.removeApiKey(providerId);
    await removeAppend.reached;
    const setting = providers.setApiKey(providerId, KEY);
    await settle();
    removeAppend.release();
    await removing;
    setAppend.release();
    await setting;
    expect((await store.readStream('config')).map((e) => e.type)).toEqual(['ProviderCreated', 'ProviderApiKeySet', 'ProviderApiKeyRemoved', 'ProviderApiKeySet']);
    expect((await providers.list()).providers[0]?.apiKey).toBe('set');
    expect(providers.usable(await fixture.services.repository.load(), providerId)?.apiKey).toBe(KEY);
  });

  it('a late retry of storing or removing a key (same command id) that a newer key has overtaken leaves the newer key in use', async () => {
    fixture = configFixture();
    const { providers } = fixture.services;
    const { providerId } = await providers.create({ name: 'P', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:1/v1' });
    const keyInUse = async () => providers.usable(await fixture.services.repository.load(), providerId)?.apiKey;
    await providers.setApiKey(providerId, 'sk-old-key-0001', { commandId: 'k1' });
    await providers.setApiKey(providerId, KEY, { commandId: 'k2' });
    await providers.setApiKey(providerId, 'sk-old-key-0001', { commandId: 'k1' });
    expect((await providers.list()).providers[0]?.apiKey).toBe('set');
    expect(await keyInUse()).toBe(KEY);

    await providers.removeApiKey(providerId, { commandId: 'r1' });
    await providers.setApiKey(providerId, 'sk-newest-key-0003', { commandId: 'k3' });
    await providers.removeApiKey(providerId, { commandId: 'r1' });
    expect((await fixture.store.readStream('config')).map((e) => e.type)).toEqual([
      'ProviderCreated',
      'ProviderApiKeySet',
      'ProviderApiKeySet',
      'ProviderApiKeyRemoved',
      'ProviderApiKeySet',
    ]);
    expect(await keyInUse()).toBe('sk-newest-key-0003');
  });

  it('another replica sees that a key was set but does not have it (set_elsewhere); a stale local key is not used', async () => {
    fixture = configFixture();
    const replica = fixture.replica();
    try {
      const { providerId } = await fixture.services.providers.create({ name: 'P', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:1/v1' });
      await replica.services.providers.setApiKey(providerId, 'sk-replica-old-key-1');
      await fixture.services.providers.setApiKey(providerId, KEY);
      // The replica's file still holds its older key, but the latest ProviderApiKeySet is not the one it stored.
      expect((await replica.services.providers.list()).providers[0]?.apiKey).toBe('set_elsewhere');
      expect(replica.services.providers.usable(await replica.services.repository.load(), providerId)?.apiKey).toBeUndefined();
      expect(fixture.services.providers.usable(await fixture.services.repository.load(), providerId)?.apiKey).toBe(KEY);
    } finally {
      replica.cleanup();
    }
  });

  it('deleting a provider forgets its key and says when it held the default model', async () => {
    fixture = configFixture();
    const { providers } = fixture.services;
    const { providerId } = await providers.create({ name: 'P', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:1/v1' });
    await providers.setApiKey(providerId, KEY);
    await providers.addModel(providerId, 'm', 'Model M');
    await providers.setDefaultModel(providerId, 'm');
    expect(await providers.delete(providerId)).toEqual({ wasDefault: true });
    expect(readFileSync(path.join(fixture.dataDir, SECRETS_FILE), 'utf8')).not.toContain(KEY);
    expect(await providers.list()).toEqual({ providers: [], defaultModel: null });
  });

  it('the environment provider lists its own model; models can be added for it and one made the default', async () => {
    fixture = configFixture({ env: ENV });
    const { providers } = fixture.services;
    expect(await providers.models('env')).toEqual([{ modelId: 'claude-env', source: 'environment', isDefault: false }]);
    await providers.addModel('env', 'claude-opus-x', undefined);
    await providers.setDefaultModel('env', 'claude-opus-x');
    expect(await providers.models('env')).toEqual([
      { modelId: 'claude-env', source: 'environment', isDefault: false },
      { modelId: 'claude-opus-x', source: 'added', isDefault: true },
    ]);
    await expect(providers.setDefaultModel('env', 'not-listed')).rejects.toMatchObject({ code: 'model_not_found' });
    await expect(providers.deleteModel('env', 'claude-env')).rejects.toMatchObject({ code: 'read_only' });
    expect(await providers.deleteModel('env', 'claude-opus-x')).toEqual({ wasDefault: true });
  });

  it('fetching the models of an Anthropic provider without a key is api_key_missing, before any request', async () => {
    fixture = configFixture({ fetchModels: () => Promise.reject(new Error('must not be called')) });
    const { providerId } = await fixture.services.providers.create({ name: 'C', kind: 'anthropic', apiBaseUrl: 'https://api.anthropic.com' });
    await expect(fixture.services.providers.fetchModels(providerId, new AbortController().signal)).rejects.toMatchObject({
      code: 'api_key_missing',
      message: expect.stringContaining(`PUT /api/providers/${providerId}/api-key`),
    });
  });
});

import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { configFixture, type ConfigFixture } from '../config.fixture';
import { DeleteEnvVarCommand } from './delete-env-var.command';
import { DeleteEnvVarHandler } from './delete-env-var.handler';
import { RemoveProviderApiKeyCommand } from './remove-provider-api-key.command';
import { RemoveProviderApiKeyHandler } from './remove-provider-api-key.handler';
import { SetEnvVarCommand } from './set-env-var.command';
import { SetEnvVarHandler } from './set-env-var.handler';
import { SetProviderApiKeyCommand } from './set-provider-api-key.command';
import { SetProviderApiKeyHandler } from './set-provider-api-key.handler';

/**
 * Retries of the HTTP changes of secrets (the same Idempotency-Key, so the same command id), sent
 * late: after a newer change of the same key or variable. They answer as their first attempt did
 * and leave the secret file alone; the newer value stays in use. Real services, an in-memory store,
 * a secret file in a temp data directory.
 */
let fixture: ConfigFixture;
afterEach(() => fixture.cleanup());

describe('late retries of secret changes', () => {
  it('PUT api-key old (k1), new (k2), old again (k1): the new key stays in use and the file is not written again', async () => {
    fixture = configFixture();
    const { services } = fixture;
    const put = new SetProviderApiKeyHandler(services);
    const { providerId } = await services.providers.create({ name: 'P', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:1/v1' });
    await put.execute(new SetProviderApiKeyCommand(providerId, 'sk-old-key-0001', 'k1'));
    await put.execute(new SetProviderApiKeyCommand(providerId, 'sk-new-key-0002', 'k2'));
    const writes = jest.spyOn(services.secrets, 'setProviderApiKey');
    await put.execute(new SetProviderApiKeyCommand(providerId, 'sk-old-key-0001', 'k1'));
    expect(writes).not.toHaveBeenCalled();
    expect((await services.providers.list()).providers[0]?.apiKey).toBe('set');
    expect(services.providers.usable(await services.repository.load(), providerId)?.apiKey).toBe('sk-new-key-0002');
    // A retry right after its first attempt (nothing newer) stores the same key again and records nothing more.
    await put.execute(new SetProviderApiKeyCommand(providerId, 'sk-new-key-0002', 'k2'));
    expect(services.providers.usable(await services.repository.load(), providerId)?.apiKey).toBe('sk-new-key-0002');
    expect((await fixture.store.readStream('config')).map((e) => e.type)).toEqual(['ProviderCreated', 'ProviderApiKeySet', 'ProviderApiKeySet']);
  });

  it('DELETE api-key (r1), PUT a new key, DELETE again (r1): the new key stays', async () => {
    fixture = configFixture();
    const { services } = fixture;
    const { providerId } = await services.providers.create({ name: 'P', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:1/v1' });
    await services.providers.setApiKey(providerId, 'sk-first-key-0001');
    const remove = new RemoveProviderApiKeyHandler(services);
    await remove.execute(new RemoveProviderApiKeyCommand(providerId, 'r1'));
    await new SetProviderApiKeyHandler(services).execute(new SetProviderApiKeyCommand(providerId, 'sk-new-key-0002', 'k2'));
    const writes = jest.spyOn(services.secrets, 'setProviderApiKey');
    const records = jest.spyOn(services.repository, 'record');
    await remove.execute(new RemoveProviderApiKeyCommand(providerId, 'r1'));
    expect(writes).not.toHaveBeenCalled();
    expect(records).not.toHaveBeenCalled();
    expect(services.providers.usable(await services.repository.load(), providerId)?.apiKey).toBe('sk-new-key-0002');
  });

  it('PUT env var old (k1), new (k2), old again (k1); DELETE (d1), PUT, DELETE again (d1): the newest value stays, a repeated DELETE answers as the first', async () => {
    fixture = configFixture();
    const { services } = fixture;
    const put = new SetEnvVarHandler(services);
    const del = new DeleteEnvVarHandler(services);
    await put.execute(new SetEnvVarCommand('TOKEN', 'old-value-0001', 'k1'));
    await put.execute(new SetEnvVarCommand('TOKEN', 'new-value-0002', 'k2'));
    const writes = jest.spyOn(services.secrets, 'setEnvVar');
    await put.execute(new SetEnvVarCommand('TOKEN', 'old-value-0001', 'k1'));
    expect(writes).not.toHaveBeenCalled();
    expect(services.envVars.toolEnv()).toEqual({ TOKEN: 'new-value-0002' });

    await del.execute(new DeleteEnvVarCommand('TOKEN', 'd1'));
    // Straight away: the first attempt answered 204, so does the retry (not 404 not_found).
    await expect(del.execute(new DeleteEnvVarCommand('TOKEN', 'd1'))).resolves.toBeUndefined();
    await put.execute(new SetEnvVarCommand('TOKEN', 'newest-value-0003', 'k3'));
    writes.mockClear();
    await del.execute(new DeleteEnvVarCommand('TOKEN', 'd1'));
    expect(writes).not.toHaveBeenCalled();
    expect(await services.envVars.list()).toEqual([{ name: 'TOKEN', source: 'configuration', valueAvailable: true }]);
    expect(services.envVars.toolEnv()).toEqual({ TOKEN: 'newest-value-0003' });
  });
});

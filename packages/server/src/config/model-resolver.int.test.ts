import { afterEach, describe, expect, it } from '@jest/globals';
import type { Agent } from '../agents/agent-directory';
import { createModelProvider, type ModelProviderConfig } from '@oneclaw/model-providers';
import { configFixture, type ConfigFixture } from './config.fixture';

const ENV_OPENAI = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ONECLAW_MODEL: 'env-model' };
const agent = (overrides: Partial<Agent> = {}): Agent => ({ id: 'default', name: 'OneClaw', systemPrompt: 'p', maxRounds: 20, source: 'default', ...overrides });

let fixture: ConfigFixture;
let made: ModelProviderConfig[];

function setUp(env: Record<string, string> = {}): ConfigFixture {
  made = [];
  fixture = configFixture({
    env,
    createClient: (config) => {
      made.push(config);
      return createModelProvider(config);
    },
  });
  return fixture;
}

afterEach(() => fixture.cleanup());

async function localProvider(f: ConfigFixture, name = 'Local', url = 'http://127.0.0.1:11434/v1'): Promise<string> {
  return (await f.services.providers.create({ name, kind: 'openai', apiBaseUrl: url })).providerId;
}

describe('ConfiguredModelResolver: which provider and model a turn uses', () => {
  it('with only the environment provider and no config events: ONECLAW_MODEL, or the agents.json model (as before)', async () => {
    const { services } = setUp(ENV_OPENAI);
    const resolved = await services.models.resolve(agent());
    expect(resolved).toMatchObject({ providerId: 'env', model: 'env-model' });
    expect(resolved.client.name).toBe('openai');
    expect(made).toEqual([{ kind: 'openai', maxRetries: 2, baseUrl: 'http://127.0.0.1:9/v1' }]);
    expect((await services.models.resolve(agent({ model: 'file-model' }))).model).toBe('file-model');
    expect(await fixture.store.readStream('config')).toEqual([]);
  });

  it('nothing configured at all is provider_not_configured with the environment hint', async () => {
    const { services } = setUp();
    await expect(services.models.resolve(agent())).rejects.toMatchObject({ code: 'provider_not_configured', message: expect.stringContaining('ANTHROPIC_API_KEY') });
  });

  it('a configured provider without a default model is not picked on its own: provider_not_configured says to set one', async () => {
    const { services } = setUp();
    await localProvider(fixture);
    await expect(services.models.resolve(agent())).rejects.toMatchObject({ code: 'provider_not_configured', message: expect.stringContaining('set_default_model') });
  });

  it('the default model beats the environment provider; an agent preferring a provider beats the default', async () => {
    const { services } = setUp(ENV_OPENAI);
    const local = await localProvider(fixture);
    const other = await localProvider(fixture, 'Other', 'http://127.0.0.1:8080/v1');
    await services.providers.addModel(local, 'llama3', undefined);
    await services.providers.addModel(other, 'qwen', undefined);
    await services.providers.setDefaultModel(local, 'llama3');
    expect(await services.models.resolve(agent())).toMatchObject({ providerId: local, model: 'llama3' });
    // A preferred model without a preferred provider applies to the provider chosen.
    expect(await services.models.resolve(agent({ preferredModelId: 'llama3:70b' }))).toMatchObject({ providerId: local, model: 'llama3:70b' });
    // Preferring a provider: its preferred model, else its first model.
    expect(await services.models.resolve(agent({ preferredProviderId: other }))).toMatchObject({ providerId: other, model: 'qwen' });
    expect(await services.models.resolve(agent({ preferredProviderId: other, preferredModelId: 'qwen:14b' }))).toMatchObject({ model: 'qwen:14b' });
    // Preferring the environment provider: its own model.
    expect(await services.models.resolve(agent({ preferredProviderId: 'env' }))).toMatchObject({ providerId: 'env', model: 'env-model' });
  });

  it('the resolved model carries the reasoning set for that model only (absent: nothing asked)', async () => {
    const { services } = setUp(ENV_OPENAI);
    const local = await localProvider(fixture);
    await services.providers.addModel(local, 'thinker', undefined);
    await services.providers.addModel(local, 'plain', undefined);
    await services.providers.setModelReasoning(local, 'thinker', 'medium');
    await services.providers.setModelReasoning('env', 'env-model', 'low');
    await services.providers.setDefaultModel(local, 'thinker');
    expect(await services.models.resolve(agent())).toMatchObject({ model: 'thinker', reasoning: 'medium' });
    expect(await services.models.resolve(agent({ preferredModelId: 'plain' }))).not.toHaveProperty('reasoning');
    expect(await services.models.resolve(agent({ preferredProviderId: 'env' }))).toMatchObject({ model: 'env-model', reasoning: 'low' });
    await services.providers.setModelReasoning(local, 'thinker', null);
    expect(await services.models.resolve(agent())).not.toHaveProperty('reasoning');
  });

  it('inactive providers are skipped: the next rule applies', async () => {
    const { services } = setUp(ENV_OPENAI);
    const local = await localProvider(fixture);
    await services.providers.addModel(local, 'llama3', undefined);
    await services.providers.setDefaultModel(local, 'llama3');
    await services.providers.update(local, { isActive: false });
    expect(await services.models.resolve(agent({ preferredProviderId: local }))).toMatchObject({ providerId: 'env', model: 'env-model' });
  });

  it('a preferred provider with no model at all is provider_not_configured naming the fix', async () => {
    const { services } = setUp(ENV_OPENAI);
    const local = await localProvider(fixture);
    await expect(services.models.resolve(agent({ preferredProviderId: local }))).rejects.toMatchObject({
      code: 'provider_not_configured',
      message: expect.stringContaining('preferred_model_id'),
    });
  });

  it('an Anthropic or Gemini provider without a key on this server is provider_not_configured pointing at the key endpoint', async () => {
    const { services } = setUp();
    const id = (await services.providers.create({ name: 'Claude', kind: 'anthropic', apiBaseUrl: 'https://api.anthropic.com/v1' })).providerId;
    await services.providers.addModel(id, 'claude-x', undefined);
    await services.providers.setDefaultModel(id, 'claude-x');
    await expect(services.models.resolve(agent())).rejects.toMatchObject({ code: 'provider_not_configured', message: expect.stringContaining(`/api/providers/${id}/api-key`) });
    await services.providers.setApiKey(id, 'sk-ant-configured-key-1');
    const resolved = await services.models.resolve(agent());
    expect(resolved.model).toBe('claude-x');
    // The version path people write is dropped: the client adds /v1/messages itself.
    expect(made.at(-1)).toEqual({ kind: 'anthropic', maxRetries: 2, apiKey: 'sk-ant-configured-key-1', baseUrl: 'https://api.anthropic.com' });
  });

  it('clients are made once per provider and made again when its address or key changes', async () => {
    const { services } = setUp();
    const local = await localProvider(fixture);
    await services.providers.addModel(local, 'm', undefined);
    await services.providers.setDefaultModel(local, 'm');
    const first = await services.models.resolve(agent());
    expect((await services.models.resolve(agent())).client).toBe(first.client);
    expect(made).toHaveLength(1);
    await services.providers.update(local, { apiBaseUrl: 'http://127.0.0.1:11435/v1' });
    const moved = await services.models.resolve(agent());
    expect(moved.client).not.toBe(first.client);
    await services.providers.setApiKey(local, 'sk-local-key-abcdef');
    expect((await services.models.resolve(agent())).client).not.toBe(moved.client);
    expect(made.map((m) => [m.baseUrl, m.apiKey])).toEqual([
      ['http://127.0.0.1:11434/v1', undefined],
      ['http://127.0.0.1:11435/v1', undefined],
      ['http://127.0.0.1:11435/v1', 'sk-local-key-abcdef'],
    ]);
  });

  it('follows a default model set on another replica (it catches up before each turn)', async () => {
    const { services } = setUp(ENV_OPENAI);
    expect((await services.models.resolve(agent())).providerId).toBe('env');
    const replica = fixture.replica();
    try {
      const local = await localProvider(replica);
      await replica.services.providers.addModel(local, 'llama3', undefined);
      await replica.services.providers.setDefaultModel(local, 'llama3');
      expect(await services.models.resolve(agent())).toMatchObject({ providerId: local, model: 'llama3' });
    } finally {
      replica.cleanup();
    }
  });

  it('F5 caughtUp: resolves from the state the turn already caught up (no second read); the next catch-up sees the change', async () => {
    const { services } = setUp(ENV_OPENAI);
    expect((await services.models.resolve(agent())).providerId).toBe('env');
    const replica = fixture.replica();
    try {
      const local = await localProvider(replica);
      await replica.services.providers.addModel(local, 'llama3', undefined);
      await replica.services.providers.setDefaultModel(local, 'llama3');
      // Not read again: the turn caught up before the other replica's change.
      expect((await services.models.resolve(agent(), { caughtUp: true })).providerId).toBe('env');
      // The next turn's one catch-up (the agent directory's refresh) brings it in for both lookups.
      await services.agents.refresh();
      expect(await services.models.resolve(agent(), { caughtUp: true })).toMatchObject({ providerId: local, model: 'llama3' });
    } finally {
      replica.cleanup();
    }
  });
});

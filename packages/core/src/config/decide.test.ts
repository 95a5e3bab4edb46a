import { describe, expect, it } from '@jest/globals';
import { deciderScenario } from '../testing/decider-scenario';
import { configAggregate } from './config-aggregate';
import type { ConfigCommand } from './config-commands';
import { reasoningOf } from './config-state';

/** The configuration decider with these commands recorded: a fixed clock, event ids `c<n>:<i>`. */
function config(...commands: ConfigCommand[]) {
  return deciderScenario(configAggregate, { context: {}, clock: () => new Date('2026-02-01T10:00:00Z'), idPrefix: 'c' }).given(...commands);
}

const ollama: ConfigCommand = { type: 'CreateProvider', providerId: 'p1', name: 'Local Ollama', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:11434/v1/' };

describe('configuration decider: providers', () => {
  it('creates a provider with a normalized base URL, active and without a key', () => {
    const c = config();
    c.when(ollama).then([{ type: 'ProviderCreated', data: { providerId: 'p1', name: 'Local Ollama', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:11434/v1' } }]);
    expect(c.state().providers.get('p1')).toEqual({
      providerId: 'p1',
      name: 'Local Ollama',
      kind: 'openai',
      apiBaseUrl: 'http://127.0.0.1:11434/v1',
      isActive: true,
      apiKeySet: false,
      createdAt: '2026-02-01T10:00:00.000Z',
    });
  });

  it.each([
    ['not a url', 'validation_error'],
    ['ftp://host/x', 'validation_error'],
    ['https://user:secret@host/v1', 'validation_error'],
    ['https://generativelanguage.googleapis.com?key=AIza-secret', 'validation_error'],
    ['', 'validation_error'],
  ])('refuses the base URL %p (a key must never ride in an event)', (apiBaseUrl, code) => {
    config()
      .when({ ...ollama, apiBaseUrl } as ConfigCommand)
      .thenThrows(code);
  });

  it('refuses an empty or over-long name, an unknown type, the reserved id env and a taken id', () => {
    config()
      .when({ ...ollama, name: '  ' } as ConfigCommand)
      .thenThrows('validation_error');
    config()
      .when({ ...ollama, name: 'x'.repeat(101) } as ConfigCommand)
      .thenThrows('validation_error');
    config()
      .when({ ...ollama, kind: 'mistral' } as unknown as ConfigCommand)
      .thenThrows('validation_error');
    config()
      .when({ ...ollama, providerId: 'env' } as ConfigCommand)
      .thenThrows('validation_error');
    config(ollama).when(ollama).thenThrows('validation_error');
  });

  it('an update records only what changed; an update that changes nothing records nothing', () => {
    const c = config(ollama);
    c.when({ type: 'UpdateProvider', providerId: 'p1', requestedBy: 'model', name: 'Local Ollama', isActive: false }).then([
      { type: 'ProviderUpdated', data: { providerId: 'p1', isActive: false } },
    ]);
    expect(c.state().providers.get('p1')?.isActive).toBe(false);
    c.when({ type: 'UpdateProvider', providerId: 'p1', requestedBy: 'model', isActive: false }).thenNothingHappened();
    c.when({ type: 'UpdateProvider', providerId: 'p1', requestedBy: 'user' }).thenThrows('validation_error');
    c.when({ type: 'UpdateProvider', providerId: 'nope', requestedBy: 'user', name: 'x' }).thenThrows('provider_not_found');
  });

  it('deleting a provider removes its models, the default model on it and agents\u2019 preference for it', () => {
    const c = config(
      ollama,
      { type: 'AddModel', providerId: 'p1', modelId: 'llama3' },
      { type: 'SetDefaultModel', providerId: 'p1', modelId: 'llama3' },
      { type: 'CreateAgent', agentId: 'a1', name: 'Helper', systemPrompt: 'Help.' },
      { type: 'UpdateAgent', agentId: 'a1', changes: { preferredProviderId: 'p1', preferredModelId: 'llama3' } },
      { type: 'UpdateAgent', agentId: 'default', changes: { preferredProviderId: 'p1' }, outsideStream: true },
    );
    expect(c.record({ type: 'DeleteProvider', providerId: 'p1' }).map((e) => e.type)).toEqual(['ProviderDeleted']);
    const s = c.state();
    expect(s.providers.size).toBe(0);
    expect(s.models.get('p1')).toBeUndefined();
    expect(s.defaultModel).toBeNull();
    expect(s.agents.get('a1')).not.toHaveProperty('preferredProviderId');
    expect(s.agents.get('a1')).not.toHaveProperty('preferredModelId');
    expect(s.agentOverlays.get('default')).toMatchObject({ preferredProviderId: null });
    c.when({ type: 'DeleteProvider', providerId: 'p1' }).thenThrows('provider_not_found');
  });

  it('records that a key was set (never the key); removing a key that is not set records nothing', () => {
    const c = config(ollama);
    c.when({ type: 'RecordProviderApiKey', providerId: 'p1', present: false }).thenNothingHappened();
    c.when({ type: 'RecordProviderApiKey', providerId: 'p1', present: true }).then([{ type: 'ProviderApiKeySet', data: { providerId: 'p1' } }]);
    expect(c.state().providers.get('p1')).toMatchObject({ apiKeySet: true, apiKeyEventId: 'c2:0' });
    expect(c.record({ type: 'RecordProviderApiKey', providerId: 'p1', present: false }).map((e) => e.type)).toEqual(['ProviderApiKeyRemoved']);
    expect(c.state().providers.get('p1')).not.toHaveProperty('apiKeyEventId');
    c.when({ type: 'RecordProviderApiKey', providerId: 'x', present: true }).thenThrows('provider_not_found');
  });

  it('a keyed provider keeps its base URL unless the user moves it (the key would follow it to any host)', () => {
    const keyed = config(ollama, { type: 'RecordProviderApiKey', providerId: 'p1', present: true });
    const elsewhere = { type: 'UpdateProvider', providerId: 'p1', apiBaseUrl: 'https://attacker.example/v1' } as const;
    keyed.when({ ...elsewhere, requestedBy: 'model' }).thenThrows('key_bound_to_url');
    // A command that does not say who asked counts as the model's.
    keyed.when({ ...elsewhere } as unknown as ConfigCommand).thenThrows('key_bound_to_url');
    keyed.when({ ...elsewhere, requestedBy: 'model', name: 'Renamed' }).thenThrows('key_bound_to_url');
    // The same address (as normalized), a name or activity change stay the model's to make.
    keyed
      .when({ ...elsewhere, requestedBy: 'model', apiBaseUrl: 'http://127.0.0.1:11434/v1/', name: 'Renamed' })
      .then([{ type: 'ProviderUpdated', data: { providerId: 'p1', name: 'Renamed' } }]);
    keyed.when({ ...elsewhere, requestedBy: 'user' }).then([{ type: 'ProviderUpdated', data: { providerId: 'p1', apiBaseUrl: 'https://attacker.example/v1' } }]);
    // Without a key there is nothing to send elsewhere.
    config(ollama)
      .when({ ...elsewhere, requestedBy: 'model' })
      .then([{ type: 'ProviderUpdated', data: { providerId: 'p1', apiBaseUrl: 'https://attacker.example/v1' } }]);
  });
});

describe('configuration decider: models', () => {
  it('fetched models replace the previous fetch, keep models added by hand, and an identical fetch records nothing', () => {
    const c = config(ollama, { type: 'AddModel', providerId: 'p1', modelId: 'my-finetune', displayName: 'Mine' });
    c.record({ type: 'RecordFetchedModels', providerId: 'p1', models: [{ modelId: 'a' }, { modelId: 'b', displayName: 'B' }, { modelId: 'a' }] });
    expect(c.state().models.get('p1')).toEqual([
      { modelId: 'a', source: 'fetched' },
      { modelId: 'b', displayName: 'B', source: 'fetched' },
      { modelId: 'my-finetune', displayName: 'Mine', source: 'added' },
    ]);
    c.when({ type: 'RecordFetchedModels', providerId: 'p1', models: [{ modelId: 'a' }, { modelId: 'b', displayName: 'B' }] }).thenNothingHappened();
    c.record({ type: 'RecordFetchedModels', providerId: 'p1', models: [{ modelId: 'c' }] });
    expect(
      c
        .state()
        .models.get('p1')
        ?.map((m) => m.modelId),
    ).toEqual(['c', 'my-finetune']);
  });

  it('a context window the model list states is kept with the model; an implausible one is left out; a changed one is recorded again', () => {
    const c = config(ollama);
    const models = [
      { modelId: 'a', contextWindowTokens: 131_072 },
      { modelId: 'b', contextWindowTokens: 12.5 },
      { modelId: 'c', contextWindowTokens: 5 },
      { modelId: 'd', contextWindowTokens: -1 },
    ];
    c.record({ type: 'RecordFetchedModels', providerId: 'p1', models });
    expect(c.state().models.get('p1')).toEqual([
      { modelId: 'a', contextWindowTokens: 131_072, source: 'fetched' },
      { modelId: 'b', source: 'fetched' },
      { modelId: 'c', source: 'fetched' },
      { modelId: 'd', source: 'fetched' },
    ]);
    c.when({ type: 'RecordFetchedModels', providerId: 'p1', models }).thenNothingHappened();
    expect(c.record({ type: 'RecordFetchedModels', providerId: 'p1', models: [{ modelId: 'a', contextWindowTokens: 262_144 }] })).toHaveLength(1);
    expect(c.state().models.get('p1')).toEqual([{ modelId: 'a', contextWindowTokens: 262_144, source: 'fetched' }]);
  });

  it('models of a provider outside the stream (the environment provider) are kept when the caller vouches for it', () => {
    const c = config();
    c.when({ type: 'AddModel', providerId: 'env', modelId: 'gpt-x' }).thenThrows('provider_not_found');
    c.record({ type: 'AddModel', providerId: 'env', modelId: 'gpt-x', outsideStream: true });
    c.when({ type: 'SetDefaultModel', providerId: 'env', modelId: 'gpt-x', outsideStream: true }).then([
      { type: 'DefaultModelSet', data: { providerId: 'env', modelId: 'gpt-x' } },
    ]);
    expect(c.state().defaultModel).toEqual({ providerId: 'env', modelId: 'gpt-x' });
  });

  it('adding a known model again records nothing; a new display name is recorded', () => {
    const c = config(ollama, { type: 'AddModel', providerId: 'p1', modelId: 'm' });
    c.when({ type: 'AddModel', providerId: 'p1', modelId: 'm' }).thenNothingHappened();
    expect(c.record({ type: 'AddModel', providerId: 'p1', modelId: 'm', displayName: 'Model M' })).toHaveLength(1);
    expect(c.state().models.get('p1')).toEqual([{ modelId: 'm', displayName: 'Model M', source: 'added' }]);
    c.when({ type: 'AddModel', providerId: 'p1', modelId: ' ' }).thenThrows('validation_error');
  });

  it('the default model must be a listed model of an active provider; deleting it clears the default', () => {
    const c = config(ollama, { type: 'AddModel', providerId: 'p1', modelId: 'm' });
    c.when({ type: 'SetDefaultModel', providerId: 'p1', modelId: 'other' }).thenThrows('model_not_found');
    c.when({ type: 'SetDefaultModel', providerId: 'p9', modelId: 'm' }).thenThrows('provider_not_found');
    c.record({ type: 'SetDefaultModel', providerId: 'p1', modelId: 'm' });
    c.when({ type: 'SetDefaultModel', providerId: 'p1', modelId: 'm' }).thenNothingHappened();
    c.record({ type: 'DeleteModel', providerId: 'p1', modelId: 'm' });
    expect(c.state().defaultModel).toBeNull();
    c.when({ type: 'DeleteModel', providerId: 'p1', modelId: 'm' }).thenThrows('model_not_found');
    c.record({ type: 'UpdateProvider', providerId: 'p1', requestedBy: 'model', isActive: false });
    c.record({ type: 'AddModel', providerId: 'p1', modelId: 'm' });
    c.when({ type: 'SetDefaultModel', providerId: 'p1', modelId: 'm' }).thenThrows('provider_inactive');
  });
});

describe('configuration decider: reasoning per model', () => {
  const withModel = () => config(ollama, { type: 'AddModel', providerId: 'p1', modelId: 'm' });

  it('records the effort set for a listed model, nothing when it is already so, and null goes back to the default', () => {
    const c = withModel();
    c.when({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'm', effort: 'high' }).then([
      { type: 'ModelReasoningSet', data: { providerId: 'p1', modelId: 'm', effort: 'high' } },
    ]);
    expect(reasoningOf(c.state(), 'p1', 'm')).toBe('high');
    c.when({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'm', effort: 'high' }).thenNothingHappened();
    c.record({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'm', effort: null });
    expect(reasoningOf(c.state(), 'p1', 'm')).toBeUndefined();
    expect(c.state().modelReasoning.size).toBe(0);
    c.when({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'm', effort: null }).thenNothingHappened();
  });

  it("refuses an unknown effort, an unknown model or provider; a model outside the stream is the caller's to check", () => {
    const c = withModel();
    c.when({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'm', effort: 'max' } as unknown as ConfigCommand).thenThrows('validation_error');
    c.when({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'other', effort: 'low' }).thenThrows('model_not_found');
    c.when({ type: 'SetModelReasoning', providerId: 'p9', modelId: 'm', effort: 'low' }).thenThrows('provider_not_found');
    c.when({ type: 'SetModelReasoning', providerId: 'env', modelId: 'gpt-x', effort: 'low', outsideStream: true }).then([
      { type: 'ModelReasoningSet', data: { providerId: 'env', modelId: 'gpt-x', effort: 'low' } },
    ]);
  });

  it('a new model list keeps the setting, even for a model it drops (which can still be cleared); deleting the model or its provider forgets it', () => {
    const c = withModel();
    c.record({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'm', effort: 'medium' });
    c.record({ type: 'RecordFetchedModels', providerId: 'p1', models: [{ modelId: 'm' }, { modelId: 'n' }] });
    c.record({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'n', effort: 'low' });
    expect(reasoningOf(c.state(), 'p1', 'm')).toBe('medium');
    c.record({ type: 'RecordFetchedModels', providerId: 'p1', models: [{ modelId: 'n' }, { modelId: 'o' }] });
    expect(reasoningOf(c.state(), 'p1', 'm')).toBe('medium');
    c.when({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'm', effort: 'high' }).thenThrows('model_not_found');
    c.when({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'm', effort: null }).then([
      { type: 'ModelReasoningSet', data: { providerId: 'p1', modelId: 'm', effort: null } },
    ]);
    c.record({ type: 'DeleteModel', providerId: 'p1', modelId: 'n' });
    expect(reasoningOf(c.state(), 'p1', 'n')).toBeUndefined();
    c.record({ type: 'SetModelReasoning', providerId: 'p1', modelId: 'o', effort: 'high' });
    c.record({ type: 'DeleteProvider', providerId: 'p1' });
    expect(c.state().modelReasoning.size).toBe(0);
  });
});

describe('configuration decider: agents', () => {
  const create: ConfigCommand = { type: 'CreateAgent', agentId: 'a1', name: ' Researcher ', description: '', systemPrompt: 'You research.' };

  it('creates an agent (name trimmed, empty description left out)', () => {
    const c = config();
    c.when(create).then([{ type: 'AgentCreated', data: { agentId: 'a1', name: 'Researcher', systemPrompt: 'You research.' } }]);
    expect(c.state().agents.get('a1')).toMatchObject({ name: 'Researcher', createdAt: '2026-02-01T10:00:00.000Z' });
  });

  it('refuses a name over 100 characters, a system prompt over 50 000 and an empty system prompt', () => {
    config()
      .when({ ...create, name: 'n'.repeat(101) } as ConfigCommand)
      .thenThrows('validation_error');
    config()
      .when({ ...create, systemPrompt: 'p'.repeat(50_001) } as ConfigCommand)
      .thenThrows('validation_error');
    config()
      .when({ ...create, systemPrompt: '   ' } as ConfigCommand)
      .thenThrows('validation_error');
    expect(config().record({ ...create, name: 'n'.repeat(100), systemPrompt: 'p'.repeat(50_000) } as ConfigCommand)).toHaveLength(1);
  });

  it('an update changes only what differs; null (an empty string in the tool) clears an optional field', () => {
    const c = config(create, { type: 'UpdateAgent', agentId: 'a1', changes: { description: 'Finds things', preferredModelId: 'm1' } });
    expect(c.state().agents.get('a1')).toMatchObject({ description: 'Finds things', preferredModelId: 'm1' });
    c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { description: 'Finds things', name: 'Researcher' } }).thenNothingHappened();
    c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { description: '', preferredModelId: null } }).then([
      { type: 'AgentUpdated', data: { agentId: 'a1', changes: { description: null, preferredModelId: null }, definedOutside: false } },
    ]);
    expect(c.state().agents.get('a1')).not.toHaveProperty('description');
    c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { name: '' } }).thenThrows('validation_error');
    c.when({ type: 'UpdateAgent', agentId: 'a1', changes: {} }).thenThrows('validation_error');
    c.when({ type: 'UpdateAgent', agentId: 'zz', changes: { name: 'x' } }).thenThrows('agent_not_found');
  });

  it('updates to an agent defined outside the stream are overlays; deleting one is read_only', () => {
    const c = config();
    c.record({ type: 'UpdateAgent', agentId: 'default', changes: { systemPrompt: 'Be brief.' }, outsideStream: true });
    c.record({ type: 'UpdateAgent', agentId: 'default', changes: { description: 'The usual' }, outsideStream: true });
    expect(c.state().agentOverlays.get('default')).toEqual({ systemPrompt: 'Be brief.', description: 'The usual' });
    c.when({ type: 'UpdateAgent', agentId: 'default', changes: { systemPrompt: 'Be brief.' }, outsideStream: true }).thenNothingHappened();
    c.when({ type: 'DeleteAgent', agentId: 'default', outsideStream: true }).thenThrows('read_only');
    c.when({ type: 'DeleteAgent', agentId: 'ghost' }).thenThrows('agent_not_found');
  });

  it('allowed tools: a list of names (each once) replaces the last, the same list records nothing, null means every tool again', () => {
    const c = config(create);
    c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: ['load_tool_group', 'gmail_search', 'load_tool_group'] } }).then([
      { type: 'AgentUpdated', data: { agentId: 'a1', changes: { allowedTools: ['load_tool_group', 'gmail_search'] }, definedOutside: false } },
    ]);
    expect(c.state().agents.get('a1')?.allowedTools).toEqual(['load_tool_group', 'gmail_search']);
    c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: ['load_tool_group', 'gmail_search'] } }).thenNothingHappened();
    expect(c.record({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: [] } })).toHaveLength(1);
    expect(c.record({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: null } })).toHaveLength(1);
    expect(c.state().agents.get('a1')).not.toHaveProperty('allowedTools');
    c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: ['ok', ''] } }).thenThrows('validation_error');
    c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: 'gmail_search' as unknown as string[] } }).thenThrows('validation_error');

    c.record({ type: 'UpdateAgent', agentId: 'default', changes: { allowedTools: ['get_current_time'] }, outsideStream: true });
    c.when({ type: 'UpdateAgent', agentId: 'default', changes: { allowedTools: ['get_current_time'] }, outsideStream: true }).thenNothingHappened();
    c.record({ type: 'UpdateAgent', agentId: 'default', changes: { allowedTools: null }, outsideStream: true });
    expect(c.state().agentOverlays.get('default')).toEqual({ allowedTools: null });
  });

  it('deletes a created agent', () => {
    const c = config(create);
    c.when({ type: 'DeleteAgent', agentId: 'a1' }).then([{ type: 'AgentDeleted', data: { agentId: 'a1' } }]);
    expect(c.state().agents.size).toBe(0);
  });
});

describe('configuration decider: settings, env var names, tool enablement', () => {
  it('theme_mode accepts system, light, dark (any case); anything else is validation_error', () => {
    const c = config();
    c.when({ type: 'SetSetting', key: 'theme_mode', value: 'Dark' }).then([{ type: 'SettingSet', data: { key: 'theme_mode', value: 'dark' } }]);
    c.when({ type: 'SetSetting', key: 'theme_mode', value: 'dark' }).thenNothingHappened();
    c.when({ type: 'SetSetting', key: 'theme_mode', value: 'purple' }).thenThrows('validation_error');
  });

  it('timezone takes IANA names in their canonical spelling; offsets and unknown zones are refused', () => {
    const c = config();
    c.when({ type: 'SetSetting', key: 'timezone', value: 'europe/paris' }).then([{ type: 'SettingSet', data: { key: 'timezone', value: 'Europe/Paris' } }]);
    c.record({ type: 'SetSetting', key: 'timezone', value: 'UTC' });
    expect(c.state().settings.get('timezone')).toBe('UTC');
    for (const bad of ['Mars/Olympus_Mons', '+01:00', 'Europe/../Paris', '']) {
      c.when({ type: 'SetSetting', key: 'timezone', value: bad }).thenThrows('validation_error');
    }
  });

  it('an unknown key is unknown_key and the error lists the known keys', () => {
    let error: { code?: string; message?: string } = {};
    try {
      config().record({ type: 'SetSetting', key: 'font_size', value: '12' });
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe('unknown_key');
    expect(error.message).toContain('theme_mode, timezone');
  });

  it('env var names are recorded (never values); names are checked; deleting an unknown one is not_found', () => {
    const c = config();
    c.when({ type: 'SetEnvVar', name: 'GITHUB_TOKEN' }).then([{ type: 'EnvVarSet', data: { name: 'GITHUB_TOKEN' } }]);
    expect(c.record({ type: 'SetEnvVar', name: 'GITHUB_TOKEN' })).toHaveLength(1); // a new value is an auditable change
    expect([...c.state().envVars]).toEqual([['GITHUB_TOKEN', 'c1:0']]);
    for (const bad of ['1ABC', 'MY-VAR', 'a b', 'X'.repeat(65)]) c.when({ type: 'SetEnvVar', name: bad }).thenThrows('validation_error');
    c.record({ type: 'DeleteEnvVar', name: 'GITHUB_TOKEN' });
    expect(c.state().envVars.size).toBe(0);
    c.when({ type: 'DeleteEnvVar', name: 'GITHUB_TOKEN' }).thenThrows('not_found');
  });

  it('tools and groups are disabled and enabled again; a repeat records nothing', () => {
    const c = config();
    expect(c.record({ type: 'SetToolEnabled', name: 'webfetch', target: 'tool', enabled: false })).toHaveLength(1);
    c.when({ type: 'SetToolEnabled', name: 'webfetch', target: 'tool', enabled: false }).thenNothingHappened();
    c.record({ type: 'SetToolEnabled', name: 'pdf', target: 'group', enabled: false });
    expect([...c.state().disabledTools]).toEqual(['webfetch']);
    expect([...c.state().disabledGroups]).toEqual(['pdf']);
    c.record({ type: 'SetToolEnabled', name: 'pdf', target: 'group', enabled: true });
    expect(c.state().disabledGroups.size).toBe(0);
    c.when({ type: 'SetToolEnabled', name: 'exec', target: 'tool', enabled: true }).thenNothingHappened();
  });

  it('load_tool_group, set_tool_enabled and the config group cannot be disabled (no lock-out), but may be "enabled"', () => {
    const c = config();
    c.when({ type: 'SetToolEnabled', name: 'load_tool_group', target: 'tool', enabled: false }).thenThrows('cannot_disable');
    c.when({ type: 'SetToolEnabled', name: 'set_tool_enabled', target: 'tool', enabled: false }).thenThrows('cannot_disable');
    c.when({ type: 'SetToolEnabled', name: 'config', target: 'group', enabled: false }).thenThrows('cannot_disable');
    c.when({ type: 'SetToolEnabled', name: 'config', target: 'group', enabled: true }).thenNothingHappened();
    expect(c.history()).toEqual([]);
  });
});

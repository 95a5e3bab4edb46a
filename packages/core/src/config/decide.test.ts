import { describe, expect, it } from '@jest/globals';
import { foldAggregate } from '../aggregate/aggregate';
import { stampEvents } from '../aggregate/stamp-events';
import { deterministicIds } from '../ids';
import { configAggregate } from './config-aggregate';
import type { ConfigCommand } from './config-commands';
import type { ConfigEvent } from './config-events';
import { initialConfigState, type ConfigState } from './config-state';
import { decideConfig } from './decide';

/** Decides and folds commands one by one, as the repository does; `when` returns the drafts. */
function config(...commands: ConfigCommand[]) {
  let state: ConfigState = initialConfigState;
  const history: ConfigEvent[] = [];
  let n = 0;
  const when = (command: ConfigCommand) => {
    const drafts = decideConfig(command, state);
    const events = stampEvents<ConfigEvent>(drafts, { now: () => new Date('2026-02-01T10:00:00Z'), newId: deterministicIds(`c${n++}`) }, 1);
    history.push(...events);
    state = foldAggregate(configAggregate, events, state);
    return drafts;
  };
  commands.forEach(when);
  return { when, state: () => state, history: () => history };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as { code: string }).code;
  }
  throw new Error('expected a typed error');
}

const ollama: ConfigCommand = { type: 'CreateProvider', providerId: 'p1', name: 'Local Ollama', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:11434/v1/' };

describe('configuration decider: providers', () => {
  it('creates a provider with a normalized base URL, active and without a key', () => {
    const c = config();
    expect(c.when(ollama)).toEqual([{ type: 'ProviderCreated', data: { providerId: 'p1', name: 'Local Ollama', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:11434/v1' } }]);
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
    expect(codeOf(() => config().when({ ...ollama, apiBaseUrl } as ConfigCommand))).toBe(code);
  });

  it('refuses an empty or over-long name, an unknown type, the reserved id env and a taken id', () => {
    expect(codeOf(() => config().when({ ...ollama, name: '  ' } as ConfigCommand))).toBe('validation_error');
    expect(codeOf(() => config().when({ ...ollama, name: 'x'.repeat(101) } as ConfigCommand))).toBe('validation_error');
    expect(codeOf(() => config().when({ ...ollama, kind: 'mistral' } as unknown as ConfigCommand))).toBe('validation_error');
    expect(codeOf(() => config().when({ ...ollama, providerId: 'env' } as ConfigCommand))).toBe('validation_error');
    expect(codeOf(() => config(ollama).when(ollama))).toBe('validation_error');
  });

  it('an update records only what changed; an update that changes nothing records nothing', () => {
    const c = config(ollama);
    expect(c.when({ type: 'UpdateProvider', providerId: 'p1', name: 'Local Ollama', isActive: false })).toEqual([
      { type: 'ProviderUpdated', data: { providerId: 'p1', isActive: false } },
    ]);
    expect(c.state().providers.get('p1')?.isActive).toBe(false);
    expect(c.when({ type: 'UpdateProvider', providerId: 'p1', isActive: false })).toEqual([]);
    expect(codeOf(() => c.when({ type: 'UpdateProvider', providerId: 'p1' }))).toBe('validation_error');
    expect(codeOf(() => c.when({ type: 'UpdateProvider', providerId: 'nope', name: 'x' }))).toBe('provider_not_found');
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
    expect(c.when({ type: 'DeleteProvider', providerId: 'p1' }).map((e) => e.type)).toEqual(['ProviderDeleted']);
    const s = c.state();
    expect(s.providers.size).toBe(0);
    expect(s.models.get('p1')).toBeUndefined();
    expect(s.defaultModel).toBeNull();
    expect(s.agents.get('a1')).not.toHaveProperty('preferredProviderId');
    expect(s.agents.get('a1')).not.toHaveProperty('preferredModelId');
    expect(s.agentOverlays.get('default')).toMatchObject({ preferredProviderId: null });
    expect(codeOf(() => c.when({ type: 'DeleteProvider', providerId: 'p1' }))).toBe('provider_not_found');
  });

  it('records that a key was set (never the key); removing a key that is not set records nothing', () => {
    const c = config(ollama);
    expect(c.when({ type: 'RecordProviderApiKey', providerId: 'p1', present: false })).toEqual([]);
    expect(c.when({ type: 'RecordProviderApiKey', providerId: 'p1', present: true })).toEqual([{ type: 'ProviderApiKeySet', data: { providerId: 'p1' } }]);
    expect(c.state().providers.get('p1')).toMatchObject({ apiKeySet: true, apiKeyEventId: 'c2:0' });
    expect(c.when({ type: 'RecordProviderApiKey', providerId: 'p1', present: false }).map((e) => e.type)).toEqual(['ProviderApiKeyRemoved']);
    expect(c.state().providers.get('p1')).not.toHaveProperty('apiKeyEventId');
    expect(codeOf(() => c.when({ type: 'RecordProviderApiKey', providerId: 'x', present: true }))).toBe('provider_not_found');
  });
});

describe('configuration decider: models', () => {
  it('fetched models replace the previous fetch, keep models added by hand, and an identical fetch records nothing', () => {
    const c = config(ollama, { type: 'AddModel', providerId: 'p1', modelId: 'my-finetune', displayName: 'Mine' });
    c.when({ type: 'RecordFetchedModels', providerId: 'p1', models: [{ modelId: 'a' }, { modelId: 'b', displayName: 'B' }, { modelId: 'a' }] });
    expect(c.state().models.get('p1')).toEqual([
      { modelId: 'a', source: 'fetched' },
      { modelId: 'b', displayName: 'B', source: 'fetched' },
      { modelId: 'my-finetune', displayName: 'Mine', source: 'added' },
    ]);
    expect(c.when({ type: 'RecordFetchedModels', providerId: 'p1', models: [{ modelId: 'a' }, { modelId: 'b', displayName: 'B' }] })).toEqual([]);
    c.when({ type: 'RecordFetchedModels', providerId: 'p1', models: [{ modelId: 'c' }] });
    expect(c.state().models.get('p1')?.map((m) => m.modelId)).toEqual(['c', 'my-finetune']);
  });

  it('a context window the model list states is kept with the model; an implausible one is left out; a changed one is recorded again', () => {
    const c = config(ollama);
    const models = [
      { modelId: 'a', contextWindowTokens: 131_072 },
      { modelId: 'b', contextWindowTokens: 12.5 },
      { modelId: 'c', contextWindowTokens: 5 },
      { modelId: 'd', contextWindowTokens: -1 },
    ];
    c.when({ type: 'RecordFetchedModels', providerId: 'p1', models });
    expect(c.state().models.get('p1')).toEqual([
      { modelId: 'a', contextWindowTokens: 131_072, source: 'fetched' },
      { modelId: 'b', source: 'fetched' },
      { modelId: 'c', source: 'fetched' },
      { modelId: 'd', source: 'fetched' },
    ]);
    expect(c.when({ type: 'RecordFetchedModels', providerId: 'p1', models })).toEqual([]);
    expect(c.when({ type: 'RecordFetchedModels', providerId: 'p1', models: [{ modelId: 'a', contextWindowTokens: 262_144 }] })).toHaveLength(1);
    expect(c.state().models.get('p1')).toEqual([{ modelId: 'a', contextWindowTokens: 262_144, source: 'fetched' }]);
  });

  it('models of a provider outside the stream (the environment provider) are kept when the caller vouches for it', () => {
    const c = config();
    expect(codeOf(() => c.when({ type: 'AddModel', providerId: 'env', modelId: 'gpt-x' }))).toBe('provider_not_found');
    c.when({ type: 'AddModel', providerId: 'env', modelId: 'gpt-x', outsideStream: true });
    expect(c.when({ type: 'SetDefaultModel', providerId: 'env', modelId: 'gpt-x', outsideStream: true })).toEqual([
      { type: 'DefaultModelSet', data: { providerId: 'env', modelId: 'gpt-x' } },
    ]);
    expect(c.state().defaultModel).toEqual({ providerId: 'env', modelId: 'gpt-x' });
  });

  it('adding a known model again records nothing; a new display name is recorded', () => {
    const c = config(ollama, { type: 'AddModel', providerId: 'p1', modelId: 'm' });
    expect(c.when({ type: 'AddModel', providerId: 'p1', modelId: 'm' })).toEqual([]);
    expect(c.when({ type: 'AddModel', providerId: 'p1', modelId: 'm', displayName: 'Model M' })).toHaveLength(1);
    expect(c.state().models.get('p1')).toEqual([{ modelId: 'm', displayName: 'Model M', source: 'added' }]);
    expect(codeOf(() => c.when({ type: 'AddModel', providerId: 'p1', modelId: ' ' }))).toBe('validation_error');
  });

  it('the default model must be a listed model of an active provider; deleting it clears the default', () => {
    const c = config(ollama, { type: 'AddModel', providerId: 'p1', modelId: 'm' });
    expect(codeOf(() => c.when({ type: 'SetDefaultModel', providerId: 'p1', modelId: 'other' }))).toBe('model_not_found');
    expect(codeOf(() => c.when({ type: 'SetDefaultModel', providerId: 'p9', modelId: 'm' }))).toBe('provider_not_found');
    c.when({ type: 'SetDefaultModel', providerId: 'p1', modelId: 'm' });
    expect(c.when({ type: 'SetDefaultModel', providerId: 'p1', modelId: 'm' })).toEqual([]);
    c.when({ type: 'DeleteModel', providerId: 'p1', modelId: 'm' });
    expect(c.state().defaultModel).toBeNull();
    expect(codeOf(() => c.when({ type: 'DeleteModel', providerId: 'p1', modelId: 'm' }))).toBe('model_not_found');
    c.when({ type: 'UpdateProvider', providerId: 'p1', isActive: false });
    c.when({ type: 'AddModel', providerId: 'p1', modelId: 'm' });
    expect(codeOf(() => c.when({ type: 'SetDefaultModel', providerId: 'p1', modelId: 'm' }))).toBe('provider_inactive');
  });
});

describe('configuration decider: agents', () => {
  const create: ConfigCommand = { type: 'CreateAgent', agentId: 'a1', name: ' Researcher ', description: '', systemPrompt: 'You research.' };

  it('creates an agent (name trimmed, empty description left out)', () => {
    const c = config();
    expect(c.when(create)).toEqual([{ type: 'AgentCreated', data: { agentId: 'a1', name: 'Researcher', systemPrompt: 'You research.' } }]);
    expect(c.state().agents.get('a1')).toMatchObject({ name: 'Researcher', createdAt: '2026-02-01T10:00:00.000Z' });
  });

  it('refuses a name over 100 characters, a system prompt over 50 000 and an empty system prompt', () => {
    expect(codeOf(() => config().when({ ...create, name: 'n'.repeat(101) } as ConfigCommand))).toBe('validation_error');
    expect(codeOf(() => config().when({ ...create, systemPrompt: 'p'.repeat(50_001) } as ConfigCommand))).toBe('validation_error');
    expect(codeOf(() => config().when({ ...create, systemPrompt: '   ' } as ConfigCommand))).toBe('validation_error');
    expect(config().when({ ...create, name: 'n'.repeat(100), systemPrompt: 'p'.repeat(50_000) } as ConfigCommand)).toHaveLength(1);
  });

  it('an update changes only what differs; null (an empty string in the tool) clears an optional field', () => {
    const c = config(create, { type: 'UpdateAgent', agentId: 'a1', changes: { description: 'Finds things', preferredModelId: 'm1' } });
    expect(c.state().agents.get('a1')).toMatchObject({ description: 'Finds things', preferredModelId: 'm1' });
    expect(c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { description: 'Finds things', name: 'Researcher' } })).toEqual([]);
    expect(c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { description: '', preferredModelId: null } })).toEqual([
      { type: 'AgentUpdated', data: { agentId: 'a1', changes: { description: null, preferredModelId: null }, definedOutside: false } },
    ]);
    expect(c.state().agents.get('a1')).not.toHaveProperty('description');
    expect(codeOf(() => c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { name: '' } }))).toBe('validation_error');
    expect(codeOf(() => c.when({ type: 'UpdateAgent', agentId: 'a1', changes: {} }))).toBe('validation_error');
    expect(codeOf(() => c.when({ type: 'UpdateAgent', agentId: 'zz', changes: { name: 'x' } }))).toBe('agent_not_found');
  });

  it('updates to an agent defined outside the stream are overlays; deleting one is read_only', () => {
    const c = config();
    c.when({ type: 'UpdateAgent', agentId: 'default', changes: { systemPrompt: 'Be brief.' }, outsideStream: true });
    c.when({ type: 'UpdateAgent', agentId: 'default', changes: { description: 'The usual' }, outsideStream: true });
    expect(c.state().agentOverlays.get('default')).toEqual({ systemPrompt: 'Be brief.', description: 'The usual' });
    expect(c.when({ type: 'UpdateAgent', agentId: 'default', changes: { systemPrompt: 'Be brief.' }, outsideStream: true })).toEqual([]);
    expect(codeOf(() => c.when({ type: 'DeleteAgent', agentId: 'default', outsideStream: true }))).toBe('read_only');
    expect(codeOf(() => c.when({ type: 'DeleteAgent', agentId: 'ghost' }))).toBe('agent_not_found');
  });

  it('allowed tools: a list of names (each once) replaces the last, the same list records nothing, null means every tool again', () => {
    const c = config(create);
    expect(c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: ['load_tool_group', 'gmail_search', 'load_tool_group'] } })).toEqual([
      { type: 'AgentUpdated', data: { agentId: 'a1', changes: { allowedTools: ['load_tool_group', 'gmail_search'] }, definedOutside: false } },
    ]);
    expect(c.state().agents.get('a1')?.allowedTools).toEqual(['load_tool_group', 'gmail_search']);
    expect(c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: ['load_tool_group', 'gmail_search'] } })).toEqual([]);
    expect(c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: [] } })).toHaveLength(1);
    expect(c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: null } })).toHaveLength(1);
    expect(c.state().agents.get('a1')).not.toHaveProperty('allowedTools');
    expect(codeOf(() => c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: ['ok', ''] } }))).toBe('validation_error');
    expect(codeOf(() => c.when({ type: 'UpdateAgent', agentId: 'a1', changes: { allowedTools: 'gmail_search' as unknown as string[] } }))).toBe('validation_error');

    c.when({ type: 'UpdateAgent', agentId: 'default', changes: { allowedTools: ['get_current_time'] }, outsideStream: true });
    expect(c.when({ type: 'UpdateAgent', agentId: 'default', changes: { allowedTools: ['get_current_time'] }, outsideStream: true })).toEqual([]);
    c.when({ type: 'UpdateAgent', agentId: 'default', changes: { allowedTools: null }, outsideStream: true });
    expect(c.state().agentOverlays.get('default')).toEqual({ allowedTools: null });
  });

  it('deletes a created agent', () => {
    const c = config(create);
    expect(c.when({ type: 'DeleteAgent', agentId: 'a1' })).toEqual([{ type: 'AgentDeleted', data: { agentId: 'a1' } }]);
    expect(c.state().agents.size).toBe(0);
  });
});

describe('configuration decider: settings, env var names, tool enablement', () => {
  it('theme_mode accepts system, light, dark (any case); anything else is validation_error', () => {
    const c = config();
    expect(c.when({ type: 'SetSetting', key: 'theme_mode', value: 'Dark' })).toEqual([{ type: 'SettingSet', data: { key: 'theme_mode', value: 'dark' } }]);
    expect(c.when({ type: 'SetSetting', key: 'theme_mode', value: 'dark' })).toEqual([]);
    expect(codeOf(() => c.when({ type: 'SetSetting', key: 'theme_mode', value: 'purple' }))).toBe('validation_error');
  });

  it('timezone takes IANA names in their canonical spelling; offsets and unknown zones are refused', () => {
    const c = config();
    expect(c.when({ type: 'SetSetting', key: 'timezone', value: 'europe/paris' })).toEqual([{ type: 'SettingSet', data: { key: 'timezone', value: 'Europe/Paris' } }]);
    c.when({ type: 'SetSetting', key: 'timezone', value: 'UTC' });
    expect(c.state().settings.get('timezone')).toBe('UTC');
    for (const bad of ['Mars/Olympus_Mons', '+01:00', 'Europe/../Paris', '']) {
      expect(codeOf(() => c.when({ type: 'SetSetting', key: 'timezone', value: bad }))).toBe('validation_error');
    }
  });

  it('an unknown key is unknown_key and the error lists the known keys', () => {
    let error: { code?: string; message?: string } = {};
    try {
      config().when({ type: 'SetSetting', key: 'font_size', value: '12' });
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe('unknown_key');
    expect(error.message).toContain('theme_mode, timezone');
  });

  it('env var names are recorded (never values); names are checked; deleting an unknown one is not_found', () => {
    const c = config();
    expect(c.when({ type: 'SetEnvVar', name: 'GITHUB_TOKEN' })).toEqual([{ type: 'EnvVarSet', data: { name: 'GITHUB_TOKEN' } }]);
    expect(c.when({ type: 'SetEnvVar', name: 'GITHUB_TOKEN' })).toHaveLength(1); // a new value is an auditable change
    expect([...c.state().envVars]).toEqual([['GITHUB_TOKEN', 'c1:0']]);
    for (const bad of ['1ABC', 'MY-VAR', 'a b', 'X'.repeat(65)]) expect(codeOf(() => c.when({ type: 'SetEnvVar', name: bad }))).toBe('validation_error');
    c.when({ type: 'DeleteEnvVar', name: 'GITHUB_TOKEN' });
    expect(c.state().envVars.size).toBe(0);
    expect(codeOf(() => c.when({ type: 'DeleteEnvVar', name: 'GITHUB_TOKEN' }))).toBe('not_found');
  });

  it('tools and groups are disabled and enabled again; a repeat records nothing', () => {
    const c = config();
    expect(c.when({ type: 'SetToolEnabled', name: 'webfetch', target: 'tool', enabled: false })).toHaveLength(1);
    expect(c.when({ type: 'SetToolEnabled', name: 'webfetch', target: 'tool', enabled: false })).toEqual([]);
    c.when({ type: 'SetToolEnabled', name: 'pdf', target: 'group', enabled: false });
    expect([...c.state().disabledTools]).toEqual(['webfetch']);
    expect([...c.state().disabledGroups]).toEqual(['pdf']);
    c.when({ type: 'SetToolEnabled', name: 'pdf', target: 'group', enabled: true });
    expect(c.state().disabledGroups.size).toBe(0);
    expect(c.when({ type: 'SetToolEnabled', name: 'exec', target: 'tool', enabled: true })).toEqual([]);
  });

  it('load_tool_group, set_tool_enabled and the config group cannot be disabled (no lock-out), but may be "enabled"', () => {
    const c = config();
    expect(codeOf(() => c.when({ type: 'SetToolEnabled', name: 'load_tool_group', target: 'tool', enabled: false }))).toBe('cannot_disable');
    expect(codeOf(() => c.when({ type: 'SetToolEnabled', name: 'set_tool_enabled', target: 'tool', enabled: false }))).toBe('cannot_disable');
    expect(codeOf(() => c.when({ type: 'SetToolEnabled', name: 'config', target: 'group', enabled: false }))).toBe('cannot_disable');
    expect(c.when({ type: 'SetToolEnabled', name: 'config', target: 'group', enabled: true })).toEqual([]);
    expect(c.history()).toEqual([]);
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createLoadToolGroupTool, toolSuccess, ToolExecutionEngine, ToolRegistry, type ToolResult } from '@oneclaw/tool-registry';
import { configFixture, type ConfigFixture } from '../../../config/config.fixture';
import { startFakeModelServer, type FakeModelServer } from '@oneclaw/model-providers/testing';
import { BUILTIN_GROUPS } from '../builtin-tools';
import { createCreateAgentTool } from './agent-tools';
import { createConfigTools } from './config-tools';
import { CONFIG_TOOL_NAMES } from '../../../testing/real-catalogue';

/**
 * The config group (17 tools) and create_agent through the real execution engine (ajv validation,
 * timeouts), over real configuration services: an in-memory event store, a secret store in a temp
 * data directory, and loopback FAKE OpenAI / Anthropic servers for fetch_models.
 */
const FAKE_KEY = 'sk-fake-openai-list-key-777';
const CONFIG_TOOLS = CONFIG_TOOL_NAMES;

let openai: FakeModelServer;
let anthropic: FakeModelServer;
let fixture: ConfigFixture;
let registry: ToolRegistry;
let engine: ToolExecutionEngine;
let calls = 0;

beforeAll(async () => {
  openai = await startFakeModelServer('openai', { apiKey: FAKE_KEY, models: [{ id: 'llama3.1:8b' }, { id: 'qwen2.5:7b' }] });
  anthropic = await startFakeModelServer('anthropic', { apiKey: FAKE_KEY });
});

afterAll(async () => {
  await openai.close();
  await anthropic.close();
});

function setUp(env: Record<string, string> = {}): void {
  fixture = configFixture({ env });
  registry = new ToolRegistry();
  registry.register(createLoadToolGroupTool(registry), { kind: 'built-in', fileName: 'load-tool-group-tool.ts' });
  registry.register(createCreateAgentTool(fixture.services.agentService), { kind: 'built-in', fileName: 'agent-tools.ts' });
  registry.registerGroup(BUILTIN_GROUPS.config, { kind: 'built-in', fileName: 'config-tools.ts' });
  for (const tool of createConfigTools(fixture.services, registry)) registry.register(tool, { kind: 'built-in', fileName: 'config-tools.ts', group: 'config' });
  registry.registerGroup(BUILTIN_GROUPS.pdf, { kind: 'built-in', fileName: 'pdf-tools.ts' });
  registry.register(
    { definition: { name: 'pdf_info', description: 'PDF facts.', parameters: { type: 'object', properties: {} } }, execute: async () => toolSuccess('') },
    { kind: 'built-in', fileName: 'pdf-tools.ts', group: 'pdf' },
  );
  engine = new ToolExecutionEngine(registry);
}

afterEach(() => fixture.cleanup());

async function call(toolName: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  calls += 1;
  const outcome = await engine.execute({ callId: `c${calls}`, toolName, arguments: args }, { sessionId: 's1', activeToolNames: registry.toolNames() });
  return outcome.result;
}

async function text(toolName: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await call(toolName, args);
  if (result.status !== 'success') throw new Error(`${toolName}: expected success, got ${result.errorType}: ${result.message}`);
  return result.result;
}

async function expectError(toolName: string, args: Record<string, unknown>, errorType: string, needle?: string): Promise<void> {
  const result = await call(toolName, args);
  expect(result).toMatchObject({ status: 'error', errorType });
  if (needle) expect(result.status === 'error' ? result.message : '').toContain(needle);
}

/** The JSON part of an answer (some answers start with a sentence). */
const jsonOf = (answer: string): any => JSON.parse(answer.slice(answer.indexOf('{')));
const configEvents = async () => fixture.store.readStream('config');

async function createLocalProvider(name = 'Local Ollama'): Promise<string> {
  return jsonOf(await text('create_provider', { name, type: 'OPENAI', api_base_url: openai.url })).provider_id;
}

describe('config group registration (issue 6, G8; CATALOGUE.md section 8)', () => {
  beforeEach(() => setUp());

  it('registers the 17 config tools in the seed order, and create_agent as a core tool; fetch_models 30 s, the others 10 s', () => {
    expect(registry.groupToolNames('config')).toEqual(CONFIG_TOOLS);
    expect(registry.coreToolNames()).toEqual(['load_tool_group', 'create_agent']);
    for (const name of [...CONFIG_TOOLS, 'create_agent']) expect(registry.definition(name)?.timeoutMs).toBe(name === 'fetch_models' ? 30_000 : 10_000);
  });
});

describe('providers: list_providers, create_provider, update_provider, delete_provider', () => {
  beforeEach(() => setUp({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ONECLAW_MODEL: 'env-model' }));

  it('list_providers shows the environment provider (read-only) and the default model, never a key', async () => {
    const answer = jsonOf(await text('list_providers'));
    expect(answer.providers).toEqual([
      {
        provider_id: 'env',
        name: 'Environment (OPENAI)',
        type: 'OPENAI',
        api_base_url: 'http://127.0.0.1:9/v1',
        is_active: true,
        defined_by: 'environment variables (read-only)',
        api_key: 'not set',
      },
    ]);
    expect(answer.default_model).toBeNull();
    expect(answer.note).toContain('PUT /api/providers/{provider_id}/api-key');
  });

  it('create_provider answers with the new id and the key step, records ProviderCreated correlated with the call', async () => {
    const answer = await text('create_provider', { name: 'Claude', type: 'ANTHROPIC', api_base_url: 'https://api.anthropic.com/v1' });
    const created = jsonOf(answer);
    expect(answer).toContain(`PUT /api/providers/${created.provider_id}/api-key`);
    expect(created).toMatchObject({ name: 'Claude', type: 'ANTHROPIC', api_base_url: 'https://api.anthropic.com/v1', is_active: true, api_key: 'not set' });
    const [event] = await configEvents();
    expect(event).toMatchObject({ type: 'ProviderCreated', data: { providerId: created.provider_id, kind: 'anthropic' } });
    expect(event?.metadata.correlationId).toMatch(/^s1\/c\d+$/);
    expect(jsonOf(await text('list_providers')).providers.map((p: { provider_id: string }) => p.provider_id)).toEqual(['env', created.provider_id]);
  });

  it('create_provider refuses bad input: a missing or unknown type, a bad or key-carrying URL, an over-long name', async () => {
    await expectError('create_provider', { name: 'X', api_base_url: 'https://x.example' }, 'validation_error');
    await expectError('create_provider', { name: 'X', type: 'MISTRAL', api_base_url: 'https://x.example' }, 'validation_error');
    await expectError('create_provider', { name: 'X', type: 'OPENAI', api_base_url: 'ftp://x.example' }, 'validation_error', 'http');
    await expectError('create_provider', { name: 'X', type: 'GEMINI', api_base_url: 'https://g.example?key=AIzaSecret' }, 'validation_error', 'API-key endpoint');
    await expectError('create_provider', { name: 'n'.repeat(101), type: 'OPENAI', api_base_url: 'https://x.example' }, 'validation_error');
    expect(await configEvents()).toEqual([]);
  });

  it('update_provider changes what is given; unknown id, the env provider and an empty update are refused', async () => {
    const id = await createLocalProvider();
    const answer = await text('update_provider', { provider_id: id, name: 'Renamed', is_active: false });
    expect(answer).toMatch(/^Updated provider 'Renamed'/);
    expect(jsonOf(answer)).toMatchObject({ name: 'Renamed', is_active: false });
    expect(await text('update_provider', { provider_id: id, is_active: false })).toMatch(/^Nothing changed/);
    await expectError('update_provider', { provider_id: 'nope', name: 'x' }, 'provider_not_found');
    await expectError('update_provider', { provider_id: 'env', name: 'x' }, 'read_only', 'environment');
    await expectError('update_provider', { provider_id: id }, 'validation_error', 'Nothing to change');
    await expectError('update_provider', { provider_id: id, is_active: 'no' }, 'validation_error');
  });

  it('update_provider cannot move a provider that has a key (key_bound_to_url, naming Settings); its name still changes', async () => {
    const id = await createLocalProvider();
    await fixture.services.providers.setApiKey(id, FAKE_KEY);
    await expectError('update_provider', { provider_id: id, api_base_url: 'https://attacker.example/v1' }, 'key_bound_to_url', 'Settings');
    await expectError('update_provider', { provider_id: id, name: 'Renamed', api_base_url: 'https://attacker.example/v1' }, 'key_bound_to_url');
    expect(jsonOf(await text('update_provider', { provider_id: id, name: 'Renamed', api_base_url: `${openai.url}/` }))).toMatchObject({
      name: 'Renamed',
      api_base_url: openai.url,
    });
    expect((await configEvents()).map((e) => e.type)).toEqual(['ProviderCreated', 'ProviderApiKeySet', 'ProviderUpdated']);
    // Without a key there is nothing to send elsewhere: the model may point it anywhere.
    await fixture.services.providers.removeApiKey(id);
    expect(jsonOf(await text('update_provider', { provider_id: id, api_base_url: 'http://127.0.0.1:9/v1' }))).toMatchObject({ api_base_url: 'http://127.0.0.1:9/v1' });
  });

  it('delete_provider deletes (saying when it held the default model); unknown id and env are refused', async () => {
    const id = await createLocalProvider();
    await text('add_model', { provider_id: id, model_id: 'llama3' });
    await text('set_default_model', { provider_id: id, model_id: 'llama3' });
    expect(await text('delete_provider', { provider_id: id })).toContain('no default model is set now');
    await expectError('delete_provider', { provider_id: id }, 'provider_not_found');
    await expectError('delete_provider', { provider_id: 'env' }, 'read_only');
    await expectError('delete_provider', {}, 'validation_error');
  });
});

describe('models: list_models, fetch_models, set_default_model, add_model, delete_model', () => {
  beforeEach(() => setUp());

  it('fetch_models calls the provider\u2019s real model-list API (FAKE OpenAI-compatible server) and keeps the list', async () => {
    const id = await createLocalProvider();
    await expectError('fetch_models', { provider_id: id }, 'provider_auth_failed', `PUT /api/providers/${id}/api-key`);
    await fixture.services.providers.setApiKey(id, FAKE_KEY);
    const answer = await text('fetch_models', { provider_id: id });
    expect(answer).toMatch(/^The provider lists 2 model\(s\)/);
    expect(jsonOf(answer).models).toEqual([
      { model_id: 'llama3.1:8b', source: 'fetched' },
      { model_id: 'qwen2.5:7b', source: 'fetched' },
    ]);
    expect(openai.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models', headers: expect.objectContaining({ authorization: `Bearer ${FAKE_KEY}` }) });
    expect(jsonOf(await text('list_models', { provider_id: id })).models).toHaveLength(2);
    expect((await configEvents()).at(-1)).toMatchObject({ type: 'ModelsFetched', data: { providerId: id, models: [{ modelId: 'llama3.1:8b' }, { modelId: 'qwen2.5:7b' }] } });
  });

  it('fetch_models from a FAKE Anthropic server; without a key it is api_key_missing; an unknown provider is provider_not_found', async () => {
    const id = jsonOf(await text('create_provider', { name: 'Claude', type: 'ANTHROPIC', api_base_url: `${anthropic.url}/v1` })).provider_id;
    await expectError('fetch_models', { provider_id: id }, 'api_key_missing', `/api/providers/${id}/api-key`);
    await fixture.services.providers.setApiKey(id, FAKE_KEY);
    expect(jsonOf(await text('fetch_models', { provider_id: id })).models).toEqual([
      { model_id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5', source: 'fetched' },
      { model_id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5', source: 'fetched' },
    ]);
    await expectError('fetch_models', { provider_id: 'nope' }, 'provider_not_found');
  });

  it('list_models of a provider with none says how to get some; unknown provider is provider_not_found', async () => {
    const id = await createLocalProvider();
    expect(jsonOf(await text('list_models', { provider_id: id }))).toEqual({ provider_id: id, models: [], note: expect.stringContaining('fetch_models') });
    await expectError('list_models', { provider_id: 'nope' }, 'provider_not_found');
    await expectError('list_models', {}, 'validation_error');
  });

  it('add_model, set_default_model and delete_model, with their errors', async () => {
    const id = await createLocalProvider();
    expect(await text('add_model', { provider_id: id, model_id: 'my-model', display_name: 'Mine' })).toBe(`Added model my-model to provider ${id}.`);
    expect(await text('add_model', { provider_id: id, model_id: 'my-model' })).toContain('already lists');
    await expectError('add_model', { provider_id: 'nope', model_id: 'm' }, 'provider_not_found');
    await expectError('add_model', { provider_id: id }, 'validation_error');

    await expectError('set_default_model', { provider_id: id, model_id: 'other' }, 'model_not_found', 'fetch_models');
    await expectError('set_default_model', { provider_id: 'nope', model_id: 'my-model' }, 'provider_not_found');
    expect(await text('set_default_model', { provider_id: id, model_id: 'my-model' })).toContain('the next turn uses it');
    expect(await text('set_default_model', { provider_id: id, model_id: 'my-model' })).toContain('already is the default');
    expect(jsonOf(await text('list_models', { provider_id: id })).models).toEqual([{ model_id: 'my-model', display_name: 'Mine', source: 'added', is_default: true }]);
    expect(jsonOf(await text('list_providers')).default_model).toEqual({ provider_id: id, model_id: 'my-model' });

    expect(await text('delete_model', { provider_id: id, model_id: 'my-model' })).toContain('It was the default model');
    await expectError('delete_model', { provider_id: id, model_id: 'my-model' }, 'model_not_found');
    await text('add_model', { provider_id: id, model_id: 'my-model' });
    await text('update_provider', { provider_id: id, is_active: false });
    await expectError('set_default_model', { provider_id: id, model_id: 'my-model' }, 'provider_inactive');
  });
});

describe('add_model with reasoning (configuration.md, "Reasoning")', () => {
  beforeEach(() => setUp({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ONECLAW_MODEL: 'env-model' }));

  it('adds a model with its reasoning, changes the reasoning of a listed one (list_models shows it), default clears it; bad input is refused', async () => {
    const id = await createLocalProvider();
    expect(await text('add_model', { provider_id: id, model_id: 'thinker', reasoning: 'high' })).toBe(
      `Added model thinker to provider ${id}. Reasoning for thinker is now high; the next turn uses it.`,
    );
    expect(await text('add_model', { provider_id: id, model_id: 'thinker', reasoning: 'high' })).toBe('Reasoning for thinker already is high.');
    expect((await configEvents()).slice(-2)).toMatchObject([
      { type: 'ModelAdded', data: { providerId: id, modelId: 'thinker' } },
      { type: 'ModelReasoningSet', data: { providerId: id, modelId: 'thinker', effort: 'high' } },
    ]);
    expect(jsonOf(await text('list_models', { provider_id: id })).models).toEqual([{ model_id: 'thinker', source: 'added', reasoning: 'high' }]);

    expect(await text('add_model', { provider_id: id, model_id: 'thinker', reasoning: 'default' })).toContain('is now the provider\u2019s default (nothing asked)');
    expect((await configEvents()).at(-1)).toMatchObject({ type: 'ModelReasoningSet', data: { effort: null } });
    expect(jsonOf(await text('list_models', { provider_id: id })).models).toEqual([{ model_id: 'thinker', source: 'added' }]);
    // Clearing never adds a model.
    expect(await text('add_model', { provider_id: id, model_id: 'other', reasoning: 'default' })).toBe(
      'Reasoning for other already is the provider\u2019s default (nothing asked).',
    );
    expect(jsonOf(await text('list_models', { provider_id: id })).models).toHaveLength(1);

    await expectError('add_model', { provider_id: 'nope', model_id: 'thinker', reasoning: 'low' }, 'provider_not_found');
    await expectError('add_model', { provider_id: id, model_id: 'thinker', reasoning: 'max' }, 'validation_error');
  });

  it('the environment provider\u2019s own model (not in any list) takes a reasoning without being added', async () => {
    expect(await text('add_model', { provider_id: 'env', model_id: 'env-model', reasoning: 'low' })).toBe('Reasoning for env-model is now low; the next turn uses it.');
    expect(jsonOf(await text('list_models', { provider_id: 'env' })).models).toEqual([{ model_id: 'env-model', source: 'environment (ONECLAW_MODEL)', reasoning: 'low' }]);
    expect((await configEvents()).map((e) => e.type)).toEqual(['ModelReasoningSet']);
  });
});

describe('agents: create_agent (core), list_agents, update_agent, delete_agent', () => {
  beforeEach(() => setUp());

  it('create_agent answers with the new id, usable at once; list_agents shows it next to the default agent', async () => {
    const answer = await text('create_agent', { name: 'Researcher', description: 'Finds sources', system_prompt: 'You research carefully.' });
    const id = /with id ([0-9a-f-]{36})/.exec(answer)?.[1] as string;
    expect(answer).toContain(`POST /api/sessions {"agentId": "${id}"}`);
    expect(fixture.services.agents.get(id)).toMatchObject({ name: 'Researcher', systemPrompt: 'You research carefully.', source: 'config' });
    const agents = jsonOf(await text('list_agents')).agents;
    expect(agents.map((a: { agent_id: string }) => a.agent_id)).toEqual(['default', id]);
    expect(agents[1]).toEqual({
      agent_id: id,
      name: 'Researcher',
      description: 'Finds sources',
      defined_by: 'configuration (create_agent)',
      system_prompt: 'You research carefully.',
    });
    expect(agents[0].defined_by).toBe('built in (cannot be deleted)');
  });

  it('create_agent refuses a name over 100 characters, a system prompt over 50 000, and a missing prompt', async () => {
    await expectError('create_agent', { name: 'n'.repeat(101), system_prompt: 'p' }, 'validation_error');
    await expectError('create_agent', { name: 'n', system_prompt: 'p'.repeat(50_001) }, 'validation_error');
    await expectError('create_agent', { name: 'n' }, 'validation_error');
    await expectError('create_agent', { name: 'n', system_prompt: '   ' }, 'validation_error');
    expect(await text('create_agent', { name: 'n'.repeat(100), system_prompt: 'p'.repeat(50_000) })).toMatch(/^Created agent/);
  });

  it('update_agent changes given fields, "" clears optional ones; errors for unknown agent, unknown provider, empty name, nothing to change', async () => {
    const id = /with id (\S+)\./.exec(await text('create_agent', { name: 'A', description: 'D', system_prompt: 'P' }))?.[1] as string;
    const provider = await createLocalProvider();
    const updated = jsonOf(await text('update_agent', { agent_id: id, description: '', preferred_provider_id: provider, preferred_model_id: 'llama3' }));
    expect(updated).toEqual({
      agent_id: id,
      name: 'A',
      defined_by: 'configuration (create_agent)',
      preferred_provider_id: provider,
      preferred_model_id: 'llama3',
      system_prompt: 'P',
    });
    expect(jsonOf(await text('update_agent', { agent_id: id, preferred_model_id: '' }))).not.toHaveProperty('preferred_model_id');
    expect(await text('update_agent', { agent_id: id, name: 'A' })).toMatch(/^Nothing changed/);
    await expectError('update_agent', { agent_id: 'ghost', name: 'x' }, 'agent_not_found');
    await expectError('update_agent', { agent_id: id, preferred_provider_id: 'nope' }, 'provider_not_found');
    await expectError('update_agent', { agent_id: id, name: '' }, 'validation_error');
    await expectError('update_agent', { agent_id: id }, 'validation_error', 'Nothing to change');
  });

  it('update_agent on the default agent is an overlay; delete_agent refuses it but deletes a created agent', async () => {
    await text('update_agent', { agent_id: 'default', system_prompt: 'Be brief.' });
    expect(fixture.services.agents.get('default').systemPrompt).toBe('Be brief.');
    await expectError('delete_agent', { agent_id: 'default' }, 'read_only');
    const id = /with id (\S+)\./.exec(await text('create_agent', { name: 'Temp', system_prompt: 'P' }))?.[1] as string;
    expect(await text('delete_agent', { agent_id: id })).toContain(`Deleted agent 'Temp' (${id})`);
    await expectError('delete_agent', { agent_id: id }, 'agent_not_found');
    await expectError('delete_agent', {}, 'validation_error');
  });
});

describe('settings: get_config, set_config, manage_env_var, list_tool_states, set_tool_enabled', () => {
  beforeEach(() => setUp({ ONECLAW_TIMEZONE: 'Asia/Tokyo', ONECLAW_ENV_FROM_ENV: 'environment-value-1' }));

  it('get_config and set_config over the known keys, with validation; an unknown key lists the known ones', async () => {
    expect(await text('get_config', { key: 'theme_mode' })).toMatch(/^theme_mode = system \(default\)/);
    expect(await text('get_config', { key: 'timezone' })).toMatch(/^timezone = Asia\/Tokyo \(default\)/);
    expect(await text('set_config', { key: 'theme_mode', value: 'dark' })).toBe('theme_mode is now dark.');
    expect(await text('set_config', { key: 'theme_mode', value: 'dark' })).toBe('theme_mode already is dark.');
    expect(await text('get_config', { key: 'theme_mode' })).toMatch(/^theme_mode = dark\n/);
    expect(await text('set_config', { key: 'timezone', value: 'europe/paris' })).toBe('timezone is now Europe/Paris.');
    expect(fixture.services.settings.timeZone()).toBe('Europe/Paris');
    await expectError('set_config', { key: 'theme_mode', value: 'purple' }, 'validation_error', 'system, light, dark');
    await expectError('set_config', { key: 'timezone', value: 'Mars/Base' }, 'validation_error', 'IANA');
    await expectError('set_config', { key: 'font_size', value: '12' }, 'unknown_key', 'theme_mode, timezone');
    await expectError('get_config', { key: 'font_size' }, 'unknown_key', 'theme_mode, timezone');
    await expectError('get_config', {}, 'validation_error');
    await expectError('set_config', { key: 'theme_mode' }, 'validation_error');
  });

  it('manage_env_var sets (value never shown, never recorded), lists names only, deletes; with its errors', async () => {
    const secret = 'tok_live_0123456789abcdef';
    expect(await text('manage_env_var', { action: 'set', key: 'SERVICE_TOKEN', value: secret })).toContain('_env.SERVICE_TOKEN');
    const listed = await text('manage_env_var', { action: 'list' });
    expect(listed).not.toContain(secret);
    expect(jsonOf(listed).variables).toEqual([
      { name: 'SERVICE_TOKEN', source: 'manage_env_var', value: 'set (hidden)' },
      { name: 'FROM_ENV', source: 'server environment (ONECLAW_ENV_FROM_ENV)', value: 'set (hidden)' },
    ]);
    expect(fixture.services.envVars.toolEnv()).toEqual({ FROM_ENV: 'environment-value-1', SERVICE_TOKEN: secret });
    expect(JSON.stringify(await configEvents())).not.toContain(secret);

    await expectError('manage_env_var', { action: 'set', value: secret }, 'missing_parameter', 'key');
    await expectError('manage_env_var', { action: 'set', key: 'X' }, 'missing_parameter', 'value');
    await expectError('manage_env_var', { action: 'set', key: 'BAD-NAME', value: 'v' }, 'validation_error');
    await expectError('manage_env_var', { action: 'delete' }, 'missing_parameter');
    await expectError('manage_env_var', { action: 'delete', key: 'NOPE' }, 'not_found');
    await expectError('manage_env_var', { action: 'delete', key: 'FROM_ENV' }, 'read_only', 'ONECLAW_ENV_FROM_ENV');
    await expectError('manage_env_var', { action: 'show', key: 'SERVICE_TOKEN' }, 'validation_error');
    expect(await text('manage_env_var', { action: 'delete', key: 'SERVICE_TOKEN' })).toBe('Deleted SERVICE_TOKEN.');
    expect(fixture.services.envVars.toolEnv()).toEqual({ FROM_ENV: 'environment-value-1' });
  });

  it('manage_env_var marks value writeOnly in its schema (the agent loop redacts it from recorded arguments)', () => {
    const value = (registry.definition('manage_env_var')?.parameters.properties as Record<string, { writeOnly?: boolean }>).value;
    expect(value?.writeOnly).toBe(true);
  });

  it('list_tool_states shows groups with their tools, then ungrouped tools; a tool of a disabled group says so', async () => {
    expect(await text('set_tool_enabled', { name: 'pdf', enabled: false, type: 'group' })).toContain("Group 'pdf' is now disabled");
    expect(await text('set_tool_enabled', { name: 'list_agents', enabled: false })).toContain("Tool 'list_agents' is now disabled");
    const states = await text('list_tool_states');
    expect(states.split('\n')).toEqual([
      'Tool groups:',
      '- config (Configuration): ENABLED',
      ...CONFIG_TOOLS.map((t) => `    ${t}: ${t === 'list_agents' ? 'DISABLED' : 'ENABLED'}`),
      '- pdf (PDF Tools): DISABLED',
      '    pdf_info: DISABLED (group disabled)',
      'Ungrouped tools:',
      '    load_tool_group: ENABLED',
      '    create_agent: ENABLED',
    ]);
  });

  it('set_tool_enabled: default type tool, repeats say so, unknown names are not_found, the lock-out ones are cannot_disable', async () => {
    expect(await text('set_tool_enabled', { name: 'create_agent', enabled: false })).toContain('no longer offered');
    expect(registry.isToolEnabled('create_agent')).toBe(false);
    expect(await text('set_tool_enabled', { name: 'create_agent', enabled: false })).toBe("Tool 'create_agent' already is disabled.");
    expect(await text('set_tool_enabled', { name: 'create_agent', enabled: true })).toContain('offered again');
    await text('set_tool_enabled', { name: 'pdf', enabled: false, type: 'group' });
    await text('set_tool_enabled', { name: 'pdf_info', enabled: false });
    expect(await text('set_tool_enabled', { name: 'pdf_info', enabled: true })).toContain("group 'pdf' is still disabled");
    await expectError('set_tool_enabled', { name: 'no_such_tool', enabled: false }, 'not_found');
    await expectError('set_tool_enabled', { name: 'no_such_group', enabled: false, type: 'group' }, 'not_found');
    await expectError('set_tool_enabled', { name: 'load_tool_group', enabled: false }, 'cannot_disable');
    await expectError('set_tool_enabled', { name: 'set_tool_enabled', enabled: false }, 'cannot_disable');
    await expectError('set_tool_enabled', { name: 'config', enabled: false, type: 'group' }, 'cannot_disable');
    await expectError('set_tool_enabled', { name: 'pdf_info', enabled: 'yes' }, 'validation_error');
    await expectError('set_tool_enabled', { name: 'pdf_info' }, 'validation_error');
  });
});

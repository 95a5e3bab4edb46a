import type { EventDraft } from '../aggregate/stamp-events';
import type { ConfigCommand, UpdateAgent, UpdateProvider } from './config-commands';
import { configErrors } from './config-errors';
import { isContextWindowTokens, PROVIDER_KINDS, REASONING_EFFORTS, type AgentChanges, type ConfigEvent, type ModelEntry } from './config-events';
import { settingDefinition } from './config-settings';
import { modelsOf, reasoningOf, type ConfigState } from './config-state';

/** The id of the provider configured by environment variables; no configured provider may take it. */
export const ENVIRONMENT_PROVIDER_ID = 'env';

/** Never disabled: without them the model could not turn anything back on (it would lock the user out). */
export const PROTECTED_TOOLS: readonly string[] = ['load_tool_group', 'set_tool_enabled'];
export const PROTECTED_GROUPS: readonly string[] = ['config'];

export const CONFIG_LIMITS = {
  providerName: 100,
  url: 2000,
  modelId: 200,
  displayName: 200,
  agentName: 100,
  agentDescription: 2000,
  systemPrompt: 50_000,
  referenceId: 200,
  /** As many names as an agents.json `allowedTools` may hold. */
  allowedTools: 10_000,
} as const;

const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

type Draft = EventDraft<ConfigEvent>;

/**
 * Turns a configuration command into the events that record it, or throws a `ConfigRuleError`
 * with a stable code. No events means "already so": setting what is already set records nothing.
 */
export function decideConfig(command: ConfigCommand, state: ConfigState): Draft[] {
  switch (command.type) {
    case 'CreateProvider': {
      const providerId = requireText('provider_id', command.providerId, CONFIG_LIMITS.referenceId);
      if (providerId === ENVIRONMENT_PROVIDER_ID || state.providers.has(providerId)) {
        throw configErrors.invalid(`Provider id '${providerId}' is taken. Use another id.`, { providerId });
      }
      if (!PROVIDER_KINDS.includes(command.kind)) {
        throw configErrors.invalid(`Provider type must be one of ${PROVIDER_KINDS.map((k) => k.toUpperCase()).join(', ')}.`);
      }
      return [
        {
          type: 'ProviderCreated',
          data: {
            providerId,
            name: requireText('name', command.name, CONFIG_LIMITS.providerName),
            kind: command.kind,
            apiBaseUrl: normalizeBaseUrl(command.apiBaseUrl),
          },
        },
      ];
    }

    case 'UpdateProvider':
      return updateProvider(command, state);

    case 'DeleteProvider':
      requireProvider(state, command.providerId);
      return [{ type: 'ProviderDeleted', data: { providerId: command.providerId } }];

    case 'RecordProviderApiKey': {
      const provider = requireProvider(state, command.providerId);
      if (command.present) return [{ type: 'ProviderApiKeySet', data: { providerId: provider.providerId } }];
      return provider.apiKeySet ? [{ type: 'ProviderApiKeyRemoved', data: { providerId: provider.providerId } }] : [];
    }

    case 'RecordFetchedModels': {
      requireKnownProvider(state, command.providerId, command.outsideStream);
      const models = uniqueModels(command.models);
      const current = modelsOf(state, command.providerId).filter((m) => m.source === 'fetched');
      const same =
        current.length === models.length &&
        current.every((m, i) => m.modelId === models[i]?.modelId && m.displayName === models[i]?.displayName && m.contextWindowTokens === models[i]?.contextWindowTokens);
      return same ? [] : [{ type: 'ModelsFetched', data: { providerId: command.providerId, models } }];
    }

    case 'AddModel': {
      requireKnownProvider(state, command.providerId, command.outsideStream);
      const modelId = requireText('model_id', command.modelId, CONFIG_LIMITS.modelId);
      const displayName = optionalText('display_name', command.displayName, CONFIG_LIMITS.displayName);
      const existing = modelsOf(state, command.providerId).find((m) => m.modelId === modelId);
      if (existing && (displayName === undefined || existing.displayName === displayName)) return [];
      return [{ type: 'ModelAdded', data: { providerId: command.providerId, modelId, ...(displayName !== undefined ? { displayName } : {}) } }];
    }

    case 'DeleteModel':
      if (!modelsOf(state, command.providerId).some((m) => m.modelId === command.modelId)) {
        throw configErrors.modelNotFound(command.providerId, command.modelId);
      }
      return [{ type: 'ModelDeleted', data: { providerId: command.providerId, modelId: command.modelId } }];

    case 'SetModelReasoning': {
      const modelId = requireText('model_id', command.modelId, CONFIG_LIMITS.modelId);
      const current = reasoningOf(state, command.providerId, modelId) ?? null;
      // Clearing a setting is always possible: a new fetch may have dropped the model it is for.
      if (command.effort === null) return current === null ? [] : [{ type: 'ModelReasoningSet', data: { providerId: command.providerId, modelId, effort: null } }];
      if (!command.outsideStream) {
        requireProvider(state, command.providerId);
        if (!modelsOf(state, command.providerId).some((m) => m.modelId === modelId)) throw configErrors.modelNotFound(command.providerId, modelId);
      }
      if (!REASONING_EFFORTS.includes(command.effort)) {
        throw configErrors.invalid(`reasoning must be one of ${REASONING_EFFORTS.join(', ')}, or null for the provider's default.`, { reasoning: command.effort });
      }
      if (current === command.effort) return [];
      return [{ type: 'ModelReasoningSet', data: { providerId: command.providerId, modelId, effort: command.effort } }];
    }

    case 'SetDefaultModel': {
      const modelId = requireText('model_id', command.modelId, CONFIG_LIMITS.modelId);
      if (!command.outsideStream) {
        const provider = requireProvider(state, command.providerId);
        if (!provider.isActive) throw configErrors.providerInactive(provider.providerId);
        if (!modelsOf(state, provider.providerId).some((m) => m.modelId === modelId)) throw configErrors.modelNotFound(provider.providerId, modelId);
      }
      const current = state.defaultModel;
      if (current?.providerId === command.providerId && current.modelId === modelId) return [];
      return [{ type: 'DefaultModelSet', data: { providerId: command.providerId, modelId } }];
    }

    case 'CreateAgent': {
      const agentId = requireText('agent_id', command.agentId, CONFIG_LIMITS.referenceId);
      if (state.agents.has(agentId)) throw configErrors.invalid(`Agent id '${agentId}' is taken. Use another id.`, { agentId });
      const description = optionalText('description', command.description, CONFIG_LIMITS.agentDescription);
      return [
        {
          type: 'AgentCreated',
          data: {
            agentId,
            name: requireText('name', command.name, CONFIG_LIMITS.agentName),
            ...(description ? { description } : {}),
            systemPrompt: requireText('system_prompt', command.systemPrompt, CONFIG_LIMITS.systemPrompt, { trim: false }),
          },
        },
      ];
    }

    case 'UpdateAgent':
      return updateAgent(command, state);

    case 'DeleteAgent':
      if (state.agents.has(command.agentId)) return [{ type: 'AgentDeleted', data: { agentId: command.agentId } }];
      if (command.outsideStream) {
        throw configErrors.readOnly(
          `Agent '${command.agentId}' is the default agent or defined in agents.json, so it cannot be deleted.`,
          'Update it instead, or remove it from agents.json.',
          { agentId: command.agentId },
        );
      }
      throw configErrors.agentNotFound(command.agentId);

    case 'SetSetting': {
      const value = settingDefinition(command.key).normalize(command.value);
      return state.settings.get(command.key) === value ? [] : [{ type: 'SettingSet', data: { key: command.key, value } }];
    }

    case 'SetEnvVar':
      return [{ type: 'EnvVarSet', data: { name: requireEnvVarName(command.name) } }];

    case 'DeleteEnvVar':
      if (!state.envVars.has(command.name)) throw configErrors.envVarNotFound(command.name);
      return [{ type: 'EnvVarDeleted', data: { name: command.name } }];

    case 'SetToolEnabled': {
      const name = requireText('name', command.name, CONFIG_LIMITS.referenceId);
      if (command.target !== 'tool' && command.target !== 'group') throw configErrors.invalid(`type must be 'tool' or 'group'.`);
      const isGroup = command.target === 'group';
      if (!command.enabled && (isGroup ? PROTECTED_GROUPS : PROTECTED_TOOLS).includes(name)) throw configErrors.cannotDisable(name, command.target);
      const disabled = (isGroup ? state.disabledGroups : state.disabledTools).has(name);
      if (disabled === !command.enabled) return [];
      return [{ type: 'ToolEnablementChanged', data: { name, target: command.target, enabled: command.enabled } }];
    }

    default: {
      const unknown: never = command;
      throw configErrors.invalid(`Unknown configuration command '${(unknown as { type?: string }).type}'.`);
    }
  }
}

function updateProvider(command: UpdateProvider, state: ConfigState): Draft[] {
  const provider = requireProvider(state, command.providerId);
  if (command.name === undefined && command.apiBaseUrl === undefined && command.isActive === undefined) {
    throw configErrors.invalid('Nothing to change: give at least one of name, api_base_url or is_active.');
  }
  const name = command.name === undefined ? undefined : requireText('name', command.name, CONFIG_LIMITS.providerName);
  const apiBaseUrl = command.apiBaseUrl === undefined ? undefined : normalizeBaseUrl(command.apiBaseUrl);
  const changed = {
    ...(name !== undefined && name !== provider.name ? { name } : {}),
    ...(apiBaseUrl !== undefined && apiBaseUrl !== provider.apiBaseUrl ? { apiBaseUrl } : {}),
    ...(command.isActive !== undefined && command.isActive !== provider.isActive ? { isActive: command.isActive } : {}),
  };
  if (Object.keys(changed).length === 0) return [];
  // The key would follow the provider to its new address: a model steered by a web page or a
  // document could send it to any host. Only the user, who sees the key and the address, may move it.
  // Anything but an explicit user request counts as the model's. (The type, which also decides
  // where a key goes, cannot change at all.)
  if (changed.apiBaseUrl !== undefined && provider.apiKeySet && command.requestedBy !== 'user') throw configErrors.keyBoundToUrl(provider.providerId);
  return [{ type: 'ProviderUpdated', data: { providerId: provider.providerId, ...changed } }];
}

function updateAgent(command: UpdateAgent, state: ConfigState): Draft[] {
  const changes = checkAgentChanges(command.changes);
  const created = state.agents.get(command.agentId);
  if (!created && !command.outsideStream) throw configErrors.agentNotFound(command.agentId);
  // The fields as they are now: the created agent's, or the overlay's (unknown fields of an outside agent always count as changed).
  const current: Record<string, unknown> = created
    ? {
        name: created.name,
        description: created.description ?? null,
        systemPrompt: created.systemPrompt,
        preferredProviderId: created.preferredProviderId ?? null,
        preferredModelId: created.preferredModelId ?? null,
        allowedTools: created.allowedTools ?? null,
      }
    : { ...(state.agentOverlays.get(command.agentId) ?? {}) };
  const changed = Object.fromEntries(Object.entries(changes).filter(([key, value]) => !(key in current) || !sameValue(current[key], value))) as AgentChanges;
  if (Object.keys(changed).length === 0) return [];
  return [{ type: 'AgentUpdated', data: { agentId: command.agentId, changes: changed, definedOutside: !created } }];
}

/** Field values are text, null or (allowedTools) a list of names: lists are equal when their names are, in order. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => item === b[i]);
  return a === b;
}

function checkAgentChanges(changes: AgentChanges): AgentChanges {
  const out: Record<string, string | readonly string[] | null> = {};
  if (changes.name !== undefined) out.name = requireText('name', changes.name, CONFIG_LIMITS.agentName);
  if (changes.systemPrompt !== undefined) out.systemPrompt = requireText('system_prompt', changes.systemPrompt, CONFIG_LIMITS.systemPrompt, { trim: false });
  if (changes.description !== undefined) out.description = nullableText('description', changes.description, CONFIG_LIMITS.agentDescription);
  if (changes.preferredProviderId !== undefined) out.preferredProviderId = nullableText('preferred_provider_id', changes.preferredProviderId, CONFIG_LIMITS.referenceId);
  if (changes.preferredModelId !== undefined) out.preferredModelId = nullableText('preferred_model_id', changes.preferredModelId, CONFIG_LIMITS.modelId);
  if (changes.allowedTools !== undefined) out.allowedTools = changes.allowedTools === null ? null : toolNameList(changes.allowedTools);
  if (Object.keys(out).length === 0) {
    throw configErrors.invalid('Nothing to change: give at least one of name, description, system_prompt, preferred_provider_id or preferred_model_id.');
  }
  return out;
}

/**
 * An agent's allowed tools: names, each once, in the order given. Not checked against the tool
 * registry: a user JS tool may be added later, and agents.json lists names the same way.
 */
function toolNameList(names: unknown): readonly string[] {
  if (!Array.isArray(names)) throw configErrors.invalid('allowed_tools must be a list of tool names, or null for every tool.', { field: 'allowed_tools' });
  if (names.length > CONFIG_LIMITS.allowedTools) {
    throw configErrors.invalid(`allowed_tools is too long: at most ${CONFIG_LIMITS.allowedTools} names (got ${names.length}).`, {
      field: 'allowed_tools',
      max: CONFIG_LIMITS.allowedTools,
    });
  }
  return [...new Set(names.map((name) => requireText('allowed_tools', name, CONFIG_LIMITS.referenceId)))];
}

function requireProvider(state: ConfigState, providerId: string) {
  const provider = state.providers.get(providerId);
  if (!provider) throw configErrors.providerNotFound(providerId);
  return provider;
}

function requireKnownProvider(state: ConfigState, providerId: string, outsideStream: boolean | undefined): void {
  if (!outsideStream) requireProvider(state, providerId);
}

function uniqueModels(models: readonly ModelEntry[]): ModelEntry[] {
  const seen = new Set<string>();
  const out: ModelEntry[] = [];
  for (const model of models) {
    const modelId = requireText('model_id', model.modelId, CONFIG_LIMITS.modelId);
    if (seen.has(modelId)) continue;
    seen.add(modelId);
    const displayName = optionalText('display_name', model.displayName, CONFIG_LIMITS.displayName);
    // The provider's figure is untrusted: an odd one is left out (the table applies), not an error.
    const window = model.contextWindowTokens;
    const contextWindowTokens = isContextWindowTokens(window) ? window : undefined;
    out.push({ modelId, ...(displayName !== undefined ? { displayName } : {}), ...(contextWindowTokens !== undefined ? { contextWindowTokens } : {}) });
  }
  return out;
}

/**
 * An http(s) URL without credentials or query: configuration events are not secret, so anything
 * that could carry a key (`user:pass@`, `?key=`) is refused. A trailing slash is dropped.
 */
export function normalizeBaseUrl(raw: string): string {
  const text = requireText('api_base_url', raw, CONFIG_LIMITS.url);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw configErrors.invalid(`api_base_url '${text}' is not a URL. Give the full address, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw configErrors.invalid(`api_base_url must start with http:// or https:// (got ${url.protocol}).`);
  if (url.username || url.password || url.search || url.hash) {
    throw configErrors.invalid('api_base_url must not contain credentials, a query string or a fragment: give the API key through the API-key endpoint instead.');
  }
  return text.replace(/\/+$/, '');
}

function requireEnvVarName(name: string): string {
  if (typeof name !== 'string' || !ENV_VAR_NAME.test(name)) {
    throw configErrors.invalid(`Environment variable names are letters, digits and _, not starting with a digit, at most 64 characters (got '${String(name)}').`);
  }
  return name;
}

function requireText(field: string, value: unknown, max: number, options: { trim?: boolean } = {}): string {
  if (typeof value !== 'string' || value.trim().length === 0) throw configErrors.invalid(`${field} is required and must not be empty.`, { field });
  const text = options.trim === false ? value : value.trim();
  if (text.length > max) throw configErrors.invalid(`${field} is too long: at most ${max} characters (got ${text.length}).`, { field, max });
  return text;
}

function optionalText(field: string, value: unknown, max: number): string | undefined {
  if (value === undefined || (typeof value === 'string' && value.trim() === '')) return undefined;
  return requireText(field, value, max);
}

function nullableText(field: string, value: string | null, max: number): string | null {
  return value === null || value.trim() === '' ? null : requireText(field, value, max);
}

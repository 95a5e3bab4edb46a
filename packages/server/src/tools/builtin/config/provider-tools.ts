import type { ProviderKind } from '@oneclaw/core';
import { builtinTool, type Tool } from '@oneclaw/tool-registry';
import { PROVIDER_KIND_LABELS } from '../../../config/provider-connection';
import type { ProviderService, ProviderView } from '../../../config/provider-service';
import { json, toolOrigin } from './tool-origin';

const TYPES: Readonly<Record<string, ProviderKind>> = { OPENAI: 'openai', ANTHROPIC: 'anthropic', GEMINI: 'gemini' };

const providerId = { type: 'string', minLength: 1, maxLength: 200, description: 'The provider id, as list_providers shows it.' } as const;
const apiBaseUrl = {
  type: 'string',
  minLength: 1,
  maxLength: 2000,
  description:
    'Base URL of the API, e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), https://api.anthropic.com, https://generativelanguage.googleapis.com. No key in it.',
} as const;

const API_KEY_HINT = 'API keys never go through the chat: the user sets one with PUT /api/providers/{provider_id}/api-key (the settings screen).';

interface CreateParams {
  readonly name: string;
  readonly type: keyof typeof TYPES;
  readonly api_base_url: string;
}

interface UpdateParams {
  readonly provider_id: string;
  readonly name?: string;
  readonly api_base_url?: string;
  readonly is_active?: boolean;
}

/** list_providers, create_provider, update_provider, delete_provider (config group). */
export function createProviderTools(providers: ProviderService): Tool[] {
  return [
    builtinTool(
      {
        name: 'list_providers',
        description: 'Lists the LLM providers (id, name, type, base URL, active, whether an API key is set, never the key) and the default model.',
        parameters: { type: 'object', properties: {} },
        timeoutMs: 10_000,
      },
      async () => {
        const { providers: list, defaultModel } = await providers.list();
        return json({
          providers: list.map(providerJson),
          default_model: defaultModel ? { provider_id: defaultModel.providerId, model_id: defaultModel.modelId } : null,
          note: `${list.length === 0 ? 'No provider yet: create one with create_provider. ' : ''}${API_KEY_HINT}`,
        });
      },
    ),
    builtinTool<CreateParams>(
      {
        name: 'create_provider',
        description: 'Adds an LLM provider: OPENAI (also any OpenAI-compatible server: Ollama, vLLM, llama.cpp, OpenRouter), ANTHROPIC or GEMINI.',
        parameters: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 100, description: 'A name for people, e.g. "Local Ollama".' },
            type: { type: 'string', enum: Object.keys(TYPES), description: 'The API the provider speaks.' },
            api_base_url: apiBaseUrl,
          },
          required: ['name', 'type', 'api_base_url'],
        },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const kind = TYPES[params.type] as ProviderKind;
        const created = await providers.create({ name: params.name, kind, apiBaseUrl: params.api_base_url }, toolOrigin(context));
        const keyStep =
          kind === 'openai'
            ? `If the server needs a key, the user sets it with PUT /api/providers/${created.providerId}/api-key (a local server needs none).`
            : `The user must set its API key with PUT /api/providers/${created.providerId}/api-key (keys never go through the chat).`;
        return `Created provider '${created.name}' with id ${created.providerId}. ${keyStep} Then call fetch_models and set_default_model to use it.\n${json(providerJson(created))}`;
      },
    ),
    builtinTool<UpdateParams>(
      {
        name: 'update_provider',
        description:
          'Changes a provider\u2019s name, base URL or whether it is active (inactive providers are not used). The base URL of a provider with an API key is changed by the user in Settings only (the key stays with its address). The environment provider (id env) is read-only.',
        parameters: {
          type: 'object',
          properties: {
            provider_id: providerId,
            name: { type: 'string', minLength: 1, maxLength: 100, description: 'New name.' },
            api_base_url: { ...apiBaseUrl, description: 'New base URL.' },
            is_active: { type: 'boolean', description: 'false: the provider is not used until activated again.' },
          },
          required: ['provider_id'],
        },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const { provider, changed } = await providers.update(
          params.provider_id,
          {
            ...(params.name !== undefined ? { name: params.name } : {}),
            ...(params.api_base_url !== undefined ? { apiBaseUrl: params.api_base_url } : {}),
            ...(params.is_active !== undefined ? { isActive: params.is_active } : {}),
          },
          toolOrigin(context),
        );
        return `${changed ? 'Updated' : 'Nothing changed for'} provider '${provider.name}'.\n${json(providerJson(provider))}`;
      },
    ),
    builtinTool<{ readonly provider_id: string }>(
      {
        name: 'delete_provider',
        description: 'Deletes a provider with its model list and its stored API key. The environment provider (id env) cannot be deleted.',
        parameters: { type: 'object', properties: { provider_id: providerId }, required: ['provider_id'] },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const { wasDefault } = await providers.delete(params.provider_id, toolOrigin(context));
        return `Deleted provider ${params.provider_id}.${wasDefault ? ' It held the default model, so no default model is set now: choose one with set_default_model.' : ''} Agents that preferred it use the default model again.`;
      },
    ),
  ];
}

function providerJson(p: ProviderView): Record<string, unknown> {
  return {
    provider_id: p.providerId,
    name: p.name,
    type: PROVIDER_KIND_LABELS[p.kind],
    api_base_url: p.apiBaseUrl,
    is_active: p.isActive,
    defined_by: p.definedBy === 'environment' ? 'environment variables (read-only)' : 'configuration',
    api_key: apiKeyText(p),
  };
}

function apiKeyText(p: ProviderView): string {
  switch (p.apiKey) {
    case 'from_environment':
      return `set (${p.keyVariable})`;
    case 'set':
      return 'set';
    case 'set_elsewhere':
      return 'set on another server of this deployment, not on this one';
    case 'not_set':
      return 'not set';
  }
}

import { builtinTool, type Tool } from '@oneclaw/tool-registry';
import type { ModelView } from '@oneclaw/api-contract';
import { REASONING_EFFORTS, type ReasoningEffort } from '@oneclaw/core';
import type { ProviderService } from '../../../config/provider-service';
import { json, toolOrigin } from './tool-origin';

const providerId = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description: 'The provider id, as list_providers shows it (env: the provider set by environment variables).',
} as const;
const modelId = { type: 'string', minLength: 1, maxLength: 200, description: 'The model id as the provider names it, e.g. gpt-4o-mini, claude-sonnet-4-5, llama3.1:8b.' } as const;

interface ModelParams {
  readonly provider_id: string;
  readonly model_id: string;
}

/** list_models, fetch_models, set_default_model, add_model, delete_model, set_model_reasoning (config group). */
export function createModelTools(providers: ProviderService): Tool[] {
  return [
    builtinTool<{ readonly provider_id: string }>(
      {
        name: 'list_models',
        description: 'Lists the models known for a provider (fetched from its API or added by hand) and which one is the default.',
        parameters: { type: 'object', properties: { provider_id: providerId }, required: ['provider_id'] },
        timeoutMs: 10_000,
      },
      async (params) => {
        const models = await providers.models(params.provider_id);
        return json({
          provider_id: params.provider_id,
          models: models.map(modelJson),
          ...(models.length === 0 ? { note: 'No models known yet: call fetch_models to ask the provider, or add_model.' } : {}),
        });
      },
    ),
    builtinTool<{ readonly provider_id: string }>(
      {
        name: 'fetch_models',
        description: 'Asks the provider\u2019s API for its current model list and keeps it (models added by hand stay). Needs the provider\u2019s API key to be set.',
        parameters: { type: 'object', properties: { provider_id: providerId }, required: ['provider_id'] },
        timeoutMs: 30_000,
      },
      async (params, context) => {
        const models = await providers.fetchModels(params.provider_id, context.signal, toolOrigin(context));
        return `The provider lists ${models.filter((m) => m.source === 'fetched').length} model(s). Choose one with set_default_model.\n${json({ provider_id: params.provider_id, models: models.map(modelJson) })}`;
      },
    ),
    builtinTool<ModelParams>(
      {
        name: 'set_default_model',
        description: 'Sets the model new turns use, for every agent without a preferred provider. The model must be listed for the provider (see list_models).',
        parameters: { type: 'object', properties: { provider_id: providerId, model_id: modelId }, required: ['provider_id', 'model_id'] },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const { changed } = await providers.setDefaultModel(params.provider_id, params.model_id, toolOrigin(context));
        return changed
          ? `The default model is now ${params.model_id} of provider ${params.provider_id}; the next turn uses it.`
          : `${params.model_id} of provider ${params.provider_id} already is the default model.`;
      },
    ),
    builtinTool<ModelParams & { readonly display_name?: string }>(
      {
        name: 'add_model',
        description: 'Adds a model to a provider\u2019s list by hand (for providers whose API does not list it).',
        parameters: {
          type: 'object',
          properties: { provider_id: providerId, model_id: modelId, display_name: { type: 'string', maxLength: 200, description: 'A name for people.' } },
          required: ['provider_id', 'model_id'],
        },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const { changed } = await providers.addModel(params.provider_id, params.model_id, params.display_name, toolOrigin(context));
        return changed ? `Added model ${params.model_id} to provider ${params.provider_id}.` : `Provider ${params.provider_id} already lists model ${params.model_id}.`;
      },
    ),
    builtinTool<ModelParams>(
      {
        name: 'delete_model',
        description: 'Removes a model from a provider\u2019s list.',
        parameters: { type: 'object', properties: { provider_id: providerId, model_id: modelId }, required: ['provider_id', 'model_id'] },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const { wasDefault } = await providers.deleteModel(params.provider_id, params.model_id, toolOrigin(context));
        return `Removed model ${params.model_id} from provider ${params.provider_id}.${wasDefault ? ' It was the default model: no default is set now; choose one with set_default_model.' : ''}`;
      },
    ),
    builtinTool<ModelParams & { readonly reasoning: ReasoningEffort | 'default' }>(
      {
        name: 'set_model_reasoning',
        description: 'Sets how hard a model is asked to think before it answers; default asks for nothing. Only for models that can reason.',
        parameters: {
          type: 'object',
          properties: { provider_id: providerId, model_id: modelId, reasoning: { type: 'string', enum: [...REASONING_EFFORTS, 'default'] } },
          required: ['provider_id', 'model_id', 'reasoning'],
        },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const effort = params.reasoning === 'default' ? null : params.reasoning;
        const { changed } = await providers.setModelReasoning(params.provider_id, params.model_id, effort, toolOrigin(context));
        const now = effort === null ? 'the provider\u2019s default (nothing asked)' : effort;
        return changed
          ? `Reasoning for ${params.model_id} of provider ${params.provider_id} is now ${now}; the next turn uses it.`
          : `Reasoning for ${params.model_id} already is ${now}.`;
      },
    ),
  ];
}

function modelJson(m: ModelView): Record<string, unknown> {
  return {
    model_id: m.modelId,
    ...(m.displayName ? { display_name: m.displayName } : {}),
    ...(m.contextWindowTokens !== undefined ? { context_window_tokens: m.contextWindowTokens } : {}),
    source: m.source === 'environment' ? 'environment (ONECLAW_MODEL)' : m.source,
    ...(m.isDefault ? { is_default: true } : {}),
    ...(m.reasoning !== undefined ? { reasoning: m.reasoning } : {}),
  };
}

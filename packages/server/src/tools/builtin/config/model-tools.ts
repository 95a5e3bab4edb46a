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

/** list_models, fetch_models, set_default_model, add_model (which also sets a model's reasoning), delete_model (config group). */
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
    builtinTool<ModelParams & { readonly display_name?: string; readonly reasoning?: ReasoningEffort | 'default' }>(
      {
        name: 'add_model',
        description: 'Adds a model to a provider\u2019s list by hand (for providers whose API does not list it), renames it, or sets how hard it is asked to think (reasoning).',
        parameters: {
          type: 'object',
          properties: {
            provider_id: providerId,
            model_id: modelId,
            display_name: { type: 'string', maxLength: 200, description: 'A name for people.' },
            reasoning: { type: 'string', enum: [...REASONING_EFFORTS, 'default'], description: 'Only for models that can reason; default asks for nothing.' },
          },
          required: ['provider_id', 'model_id'],
        },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const { provider_id: provider, model_id: model } = params;
        const effort = params.reasoning === undefined ? undefined : params.reasoning === 'default' ? null : params.reasoning;
        const origin = toolOrigin(context);
        const answer: string[] = [];
        // A listed model (fetched, or the environment provider's own) only takes its reasoning;
        // clearing it never adds the model (the setting may be left from a model a fetch dropped).
        const listed = (await providers.models(provider)).some((m) => m.modelId === model);
        if (params.display_name !== undefined || (!listed && effort !== null)) {
          const { changed } = await providers.addModel(provider, model, params.display_name, origin);
          answer.push(changed ? `Added model ${model} to provider ${provider}.` : `Provider ${provider} already lists model ${model}.`);
        } else if (effort === undefined) {
          answer.push(`Provider ${provider} already lists model ${model}.`);
        }
        if (effort !== undefined) {
          const { changed } = await providers.setModelReasoning(provider, model, effort, origin);
          const now = effort === null ? 'the provider\u2019s default (nothing asked)' : effort;
          answer.push(changed ? `Reasoning for ${model} is now ${now}; the next turn uses it.` : `Reasoning for ${model} already is ${now}.`);
        }
        return answer.join(' ');
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

import { ENVIRONMENT_PROVIDER_ID, modelsOf, OneClawError, reasoningOf, type ConfigState, type ReasoningEffort } from '@oneclaw/core';
import type { Agent } from '../agents/agent-directory';
import { createModelProvider, type ModelProviderConfig, type ModelProvider } from '@oneclaw/model-providers';
import type { ConfigRepository } from './config-repository';
import type { ProviderService, UsableProvider } from './provider-service';
import { apiKeyMissing } from './provider-service';

/** The model one turn runs on. */
export interface ResolvedModel {
  readonly providerId: string;
  readonly model: string;
  readonly client: ModelProvider;
  /** The model's context window as the provider's model list states it, when it does (fetch_models). */
  readonly contextWindowTokens?: number;
  /** The reasoning set for the model (PATCH /api/providers/:id/models/:modelId); absent: ask for nothing. */
  readonly reasoning?: ReasoningEffort;
}

/** What the agent loop asks once per turn; throws `provider_not_configured` when nothing can be used. */
export interface ModelResolver {
  resolve(agent: Agent, options?: ResolveOptions): Promise<ResolvedModel>;
}

export interface ResolveOptions {
  /**
   * The caller caught the configuration up with the store a moment ago (the turn does it once,
   * for its agent and its model): resolve from the cached state without another read.
   */
  readonly caughtUp?: boolean;
}

export interface ConfiguredModelResolverOptions {
  readonly maxRetries: number;
  /** Tests count the clients made; the server uses `createModelProvider`. */
  readonly createClient?: (config: ModelProviderConfig) => ModelProvider;
}

/**
 * Picks each turn's provider and model from the configuration: the agent's preferred provider
 * (with its preferred model, else the default model when it is on that provider, else the
 * provider's own or first model), else the default model set with set_default_model, else the
 * provider configured by environment variables (the agent's `model` from agents.json, else
 * ONECLAW_MODEL). A preferred model without a preferred provider applies to whichever provider is
 * chosen. Inactive and deleted providers are skipped. Clients are made once per provider and made
 * again when its type, address or key changes.
 */
export class ConfiguredModelResolver implements ModelResolver {
  private readonly clients = new Map<string, { readonly fingerprint: string; readonly client: ModelProvider }>();
  private readonly createClient: (config: ModelProviderConfig) => ModelProvider;

  constructor(
    private readonly repository: ConfigRepository,
    private readonly providers: ProviderService,
    private readonly options: ConfiguredModelResolverOptions,
  ) {
    this.createClient = options.createClient ?? createModelProvider;
  }

  async resolve(agent: Agent, options: ResolveOptions = {}): Promise<ResolvedModel> {
    const state = options.caughtUp ? this.repository.cached : await this.repository.load();
    const preferred = agent.preferredProviderId ? this.providers.usable(state, agent.preferredProviderId) : undefined;
    if (preferred) {
      const fromDefault = state.defaultModel?.providerId === preferred.providerId ? state.defaultModel.modelId : undefined;
      const model =
        agent.preferredModelId ?? fromDefault ?? (preferred.ownModel ? (agent.model ?? preferred.ownModel) : undefined) ?? modelsOf(state, preferred.providerId)[0]?.modelId;
      if (!model) {
        throw notConfigured(
          `Agent '${agent.name}' prefers provider '${preferred.name}', which has no model to use. Set preferred_model_id with update_agent, or give the provider models with fetch_models or add_model.`,
        );
      }
      return this.ready(state, preferred, model);
    }
    const defaultProvider = state.defaultModel ? this.providers.usable(state, state.defaultModel.providerId) : undefined;
    if (defaultProvider && state.defaultModel) return this.ready(state, defaultProvider, agent.preferredModelId ?? state.defaultModel.modelId);
    const env = this.providers.environment;
    if (env) return this.ready(state, { ...env, ownModel: env.model }, agent.preferredModelId ?? agent.model ?? env.model);
    throw notConfigured(
      hasConfiguredProviders(state)
        ? 'No language model is selected. Set a default model with set_default_model (config tools), or set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY and restart.'
        : 'No language model is configured. Set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server) and restart.',
    );
  }

  private ready(state: ConfigState, provider: UsableProvider, model: string): ResolvedModel {
    // Anthropic and Gemini refuse every request without a key: say what to do instead of a 401 later.
    // (The environment provider keeps its behaviour as it was before configured providers.)
    if (provider.providerId !== ENVIRONMENT_PROVIDER_ID && provider.kind !== 'openai' && !provider.apiKey) throw notConfigured(apiKeyMissing(provider.providerId).message);
    const window = modelsOf(state, provider.providerId).find((m) => m.modelId === model)?.contextWindowTokens;
    const reasoning = reasoningOf(state, provider.providerId, model);
    return {
      providerId: provider.providerId,
      model,
      client: this.clientFor(provider),
      ...(window !== undefined ? { contextWindowTokens: window } : {}),
      ...(reasoning !== undefined ? { reasoning } : {}),
    };
  }

  private clientFor(provider: UsableProvider): ModelProvider {
    const fingerprint = JSON.stringify([provider.kind, provider.baseUrl ?? null, provider.apiKey ?? null]);
    const cached = this.clients.get(provider.providerId);
    if (cached?.fingerprint === fingerprint) return cached.client;
    const client = this.createClient({
      kind: provider.kind,
      maxRetries: this.options.maxRetries,
      ...(provider.apiKey ? { apiKey: provider.apiKey } : {}),
      ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
    });
    this.clients.set(provider.providerId, { fingerprint, client });
    return client;
  }
}

function hasConfiguredProviders(state: ConfigState): boolean {
  return [...state.providers.values()].some((p) => p.isActive);
}

function notConfigured(message: string): OneClawError {
  return new OneClawError('provider_not_configured', message);
}

import { randomUUID } from 'node:crypto';
import type { ModelView, ProviderView as ProviderApiView } from '@oneclaw/api-contract';
import {
  configErrors,
  ENVIRONMENT_PROVIDER_ID,
  modelsOf,
  OneClawError,
  reasoningOf,
  type ConfigState,
  type ConfiguredProvider,
  type ModelRef,
  type ProviderKind,
  type ReasoningEffort,
} from '@oneclaw/core';
import { ProviderError } from '@oneclaw/model-providers';
import type { SecretRedactor } from '../security/secret-redactor';
import { ConfigRepository, type ChangeOrigin } from './config-repository';
import { configuredConnection, DEFAULT_BASE_URLS, KEY_VARIABLES, type EnvironmentProvider, type ProviderConnection } from './provider-connection';
import { PerKeyQueue } from '../persistence/per-key-queue';
import { fetchProviderModels, type ModelListFetcher } from './provider-model-list';
import type { SecretStore } from './secret-store';

/**
 * A provider as the tools and the API show it; never its key, only whether there is one. The
 * API's view (the contract's) adds its models and `hasApiKey`: queries/provider-api-view.ts.
 */
export type ProviderView = Omit<ProviderApiView, 'hasApiKey' | 'models'>;

/** An active provider ready to be called. */
export interface UsableProvider extends ProviderConnection {
  readonly name: string;
  /** The provider's own default model when it has one (the environment provider's). */
  readonly ownModel?: string;
}

export interface ProviderServiceDeps {
  readonly repository: ConfigRepository;
  readonly secrets: SecretStore;
  readonly redactor: SecretRedactor;
  readonly environment?: EnvironmentProvider;
  readonly fetchModels?: ModelListFetcher;
}

const MAX_API_KEY_CHARS = 4096;
const API_KEY_CHARS = /^[\x21-\x7e]+$/;

/**
 * Providers and their models: the environment provider (read-only, shown as `env`) and the
 * providers created through the configuration, whose keys live in the secret store.
 */
export class ProviderService {
  private readonly fetchModelList: ModelListFetcher;
  /** Changes of one provider's key, one at a time: each writes the secret file and the stream (persistence/per-key-queue.ts). */
  private readonly keyChanges = new PerKeyQueue();

  constructor(private readonly deps: ProviderServiceDeps) {
    this.fetchModelList = deps.fetchModels ?? fetchProviderModels;
  }

  get environment(): EnvironmentProvider | undefined {
    return this.deps.environment;
  }

  async list(): Promise<{ readonly providers: readonly ProviderView[]; readonly defaultModel: ModelRef | null }> {
    const state = await this.deps.repository.load();
    const env = this.deps.environment;
    const providers: ProviderView[] = env
      ? [
          {
            providerId: env.providerId,
            name: env.name,
            kind: env.kind,
            apiBaseUrl: env.baseUrl ?? DEFAULT_BASE_URLS[env.kind],
            isActive: true,
            definedBy: 'environment',
            apiKey: env.apiKey ? 'from_environment' : 'not_set',
            ...(env.apiKey ? { keyVariable: KEY_VARIABLES[env.kind] } : {}),
          },
        ]
      : [];
    for (const provider of state.providers.values()) providers.push(this.viewOf(provider));
    return { providers, defaultModel: state.defaultModel };
  }

  async create(input: { readonly name: string; readonly kind: ProviderKind; readonly apiBaseUrl: string }, origin?: ChangeOrigin): Promise<ProviderView> {
    const providerId = randomUUID();
    const recorded = await this.deps.repository.record({ type: 'CreateProvider', providerId, ...input }, origin);
    return this.viewOf(recorded.state.providers.get(providerId) as ConfiguredProvider);
  }

  async update(
    providerId: string,
    changes: { readonly name?: string; readonly apiBaseUrl?: string; readonly isActive?: boolean },
    origin?: ChangeOrigin,
  ): Promise<{ readonly provider: ProviderView; readonly changed: boolean }> {
    this.refuseEnvironment(providerId, 'changed');
    const recorded = await this.deps.repository.record({ type: 'UpdateProvider', providerId, requestedBy: origin?.requestedBy ?? 'model', ...changes }, origin);
    return { provider: this.viewOf(recorded.state.providers.get(providerId) as ConfiguredProvider), changed: recorded.events.length > 0 };
  }

  /** Also forgets the provider's key on this server. */
  async delete(providerId: string, origin?: ChangeOrigin): Promise<{ readonly wasDefault: boolean }> {
    this.refuseEnvironment(providerId, 'deleted');
    return this.keyChanges.run(providerId, async () => {
      const before = await this.deps.repository.load();
      await this.deps.repository.record({ type: 'DeleteProvider', providerId }, origin);
      if (this.deps.secrets.providerApiKey(providerId)) this.deps.secrets.setProviderApiKey(providerId, undefined);
      return { wasDefault: before.defaultModel?.providerId === providerId };
    });
  }

  async models(providerId: string): Promise<readonly ModelView[]> {
    const state = await this.deps.repository.load();
    this.requireProvider(state, providerId);
    return this.modelViews(state, providerId);
  }

  /** Asks the provider's API for its models and records the list. */
  async fetchModels(providerId: string, signal: AbortSignal, origin?: ChangeOrigin): Promise<readonly ModelView[]> {
    const state = await this.deps.repository.load();
    const connection = this.connectionOf(state, providerId);
    if (connection.kind !== 'openai' && !connection.apiKey) throw apiKeyMissing(providerId);
    const models = await this.fetchModelList(connection, signal).catch((error: unknown) => {
      // The provider errors' hint names the environment variables; a configured provider's key is set elsewhere.
      if (error instanceof ProviderError && error.code === 'provider_auth_failed' && providerId !== ENVIRONMENT_PROVIDER_ID) {
        throw new ProviderError(
          'provider_auth_failed',
          `Provider '${providerId}' refused the key (HTTP ${String(error.details.status)}). The user sets a new one with PUT /api/providers/${providerId}/api-key.`,
          error.details,
        );
      }
      throw error;
    });
    const recorded = await this.deps.repository.record({ type: 'RecordFetchedModels', providerId, models, outsideStream: providerId === ENVIRONMENT_PROVIDER_ID }, origin);
    return this.modelViews(recorded.state, providerId);
  }

  async addModel(providerId: string, modelId: string, displayName: string | undefined, origin?: ChangeOrigin): Promise<{ readonly changed: boolean }> {
    const state = await this.deps.repository.load();
    this.requireProvider(state, providerId);
    const recorded = await this.deps.repository.record(
      { type: 'AddModel', providerId, modelId, ...(displayName !== undefined ? { displayName } : {}), outsideStream: providerId === ENVIRONMENT_PROVIDER_ID },
      origin,
    );
    return { changed: recorded.events.length > 0 };
  }

  async deleteModel(providerId: string, modelId: string, origin?: ChangeOrigin): Promise<{ readonly wasDefault: boolean }> {
    const state = await this.deps.repository.load();
    this.requireProvider(state, providerId);
    const env = this.deps.environment;
    if (providerId === ENVIRONMENT_PROVIDER_ID && env?.model === modelId && !modelsOf(state, providerId).some((m) => m.modelId === modelId)) {
      throw configErrors.readOnly(`'${modelId}' is the environment provider's own model (ONECLAW_MODEL),`, 'so it cannot be deleted; change ONECLAW_MODEL and restart instead.', {
        providerId,
        modelId,
      });
    }
    await this.deps.repository.record({ type: 'DeleteModel', providerId, modelId }, origin);
    return { wasDefault: state.defaultModel?.providerId === providerId && state.defaultModel.modelId === modelId };
  }

  async setDefaultModel(providerId: string, modelId: string, origin?: ChangeOrigin): Promise<{ readonly changed: boolean }> {
    const state = await this.deps.repository.load();
    this.requireProvider(state, providerId);
    const outsideStream = providerId === ENVIRONMENT_PROVIDER_ID;
    if (outsideStream) this.requireOffered(state, providerId, modelId);
    const recorded = await this.deps.repository.record({ type: 'SetDefaultModel', providerId, modelId, outsideStream }, origin);
    return { changed: recorded.events.length > 0 };
  }

  /** How hard the model is asked to think; `null` asks for nothing (the provider's default). */
  async setModelReasoning(providerId: string, modelId: string, effort: ReasoningEffort | null, origin?: ChangeOrigin): Promise<{ readonly changed: boolean }> {
    const state = await this.deps.repository.load();
    this.requireProvider(state, providerId);
    const outsideStream = providerId === ENVIRONMENT_PROVIDER_ID;
    if (outsideStream && effort !== null) this.requireOffered(state, providerId, modelId);
    const recorded = await this.deps.repository.record({ type: 'SetModelReasoning', providerId, modelId, effort, outsideStream }, origin);
    return { changed: recorded.events.length > 0 };
  }

  /**
   * Stores a key (HTTP only: keys never pass through the model). The redactor learns it first, so
   * nothing said afterwards can show it; the event records only that a key was set.
   */
  async setApiKey(providerId: string, apiKey: string, origin: ChangeOrigin = {}): Promise<void> {
    this.refuseEnvironment(providerId, 'given a key here');
    if (apiKey.length === 0 || apiKey.length > MAX_API_KEY_CHARS || !API_KEY_CHARS.test(apiKey)) {
      throw configErrors.invalid(`An API key is 1 to ${MAX_API_KEY_CHARS} visible ASCII characters without spaces.`);
    }
    this.deps.redactor.add(apiKey);
    const commandId = origin.commandId ?? randomUUID();
    const eventId = ConfigRepository.firstEventId(commandId);
    await this.keyChanges.run(providerId, async () => {
      const state = await this.deps.repository.load();
      this.requireProvider(state, providerId);
      const previous = this.deps.secrets.providerApiKey(providerId);
      this.deps.secrets.setProviderApiKey(providerId, { value: apiKey, eventId });
      let recorded: ConfigState;
      try {
        recorded = (await this.deps.repository.record({ type: 'RecordProviderApiKey', providerId, present: true }, { ...origin, commandId })).state;
      } catch (error) {
        this.deps.secrets.setProviderApiKey(providerId, previous);
        throw error;
      }
      // A retry of a key replaced since appends nothing (the store acknowledges the first attempt's event): the newer key stays.
      if (recorded.providers.get(providerId)?.apiKeyEventId !== eventId) this.deps.secrets.setProviderApiKey(providerId, previous);
    });
  }

  async removeApiKey(providerId: string, origin?: ChangeOrigin): Promise<void> {
    this.refuseEnvironment(providerId, 'changed');
    await this.keyChanges.run(providerId, async () => {
      const recorded = await this.deps.repository.record({ type: 'RecordProviderApiKey', providerId, present: false }, origin);
      // Only a key the stream no longer names: a retried removal that a later key overtook appends nothing, and that key stays.
      const stored = this.deps.secrets.providerApiKey(providerId);
      if (stored && stored.eventId !== recorded.state.providers.get(providerId)?.apiKeyEventId) this.deps.secrets.setProviderApiKey(providerId, undefined);
    });
  }

  /** The provider ready to call, or undefined when it does not exist or is inactive. */
  usable(state: ConfigState, providerId: string): UsableProvider | undefined {
    const env = this.deps.environment;
    if (providerId === ENVIRONMENT_PROVIDER_ID) return env ? { ...env, ownModel: env.model } : undefined;
    const provider = state.providers.get(providerId);
    if (!provider?.isActive) return undefined;
    return { ...configuredConnection(provider, this.deps.secrets.providerApiKey(providerId)), name: provider.name };
  }

  /** True when the id names the environment provider or a configured one. */
  exists(state: ConfigState, providerId: string): boolean {
    return providerId === ENVIRONMENT_PROVIDER_ID ? this.deps.environment !== undefined : state.providers.has(providerId);
  }

  private connectionOf(state: ConfigState, providerId: string): ProviderConnection {
    this.requireProvider(state, providerId);
    const env = this.deps.environment;
    if (providerId === ENVIRONMENT_PROVIDER_ID && env) return env;
    return configuredConnection(state.providers.get(providerId) as ConfiguredProvider, this.deps.secrets.providerApiKey(providerId));
  }

  private modelViews(state: ConfigState, providerId: string): ModelView[] {
    const isDefault = (modelId: string) => state.defaultModel?.providerId === providerId && state.defaultModel.modelId === modelId;
    const reasoning = (modelId: string) => {
      const effort = reasoningOf(state, providerId, modelId);
      return effort !== undefined ? { reasoning: effort } : {};
    };
    const listed = modelsOf(state, providerId).map((m): ModelView => ({ ...m, isDefault: isDefault(m.modelId), ...reasoning(m.modelId) }));
    const env = this.deps.environment;
    if (providerId !== ENVIRONMENT_PROVIDER_ID || !env || listed.some((m) => m.modelId === env.model)) return listed;
    return [{ modelId: env.model, source: 'environment', isDefault: isDefault(env.model), ...reasoning(env.model) }, ...listed];
  }

  private viewOf(provider: ConfiguredProvider): ProviderView {
    const key = this.deps.secrets.providerApiKey(provider.providerId);
    return {
      providerId: provider.providerId,
      name: provider.name,
      kind: provider.kind,
      apiBaseUrl: provider.apiBaseUrl,
      isActive: provider.isActive,
      definedBy: 'configuration',
      apiKey: !provider.apiKeySet ? 'not_set' : key?.eventId === provider.apiKeyEventId ? 'set' : 'set_elsewhere',
    };
  }

  /** The decider checks a configured provider's models itself; the environment provider's own model is known only here. */
  private requireOffered(state: ConfigState, providerId: string, modelId: string): void {
    if (!this.modelViews(state, providerId).some((m) => m.modelId === modelId)) throw configErrors.modelNotFound(providerId, modelId);
  }

  private requireProvider(state: ConfigState, providerId: string): void {
    if (!this.exists(state, providerId)) throw configErrors.providerNotFound(providerId);
  }

  private refuseEnvironment(providerId: string, what: string): void {
    const env = this.deps.environment;
    if (providerId !== ENVIRONMENT_PROVIDER_ID) return;
    if (!env) throw configErrors.providerNotFound(providerId);
    throw configErrors.readOnly(
      `Provider 'env' is defined by the server's environment variables, so it cannot be ${what} here.`,
      `Change ONECLAW_PROVIDER, ${KEY_VARIABLES[env.kind]} or the base URL variable and restart the server, or create another provider.`,
      { providerId },
    );
  }
}

export function apiKeyMissing(providerId: string): OneClawError {
  return new OneClawError(
    'api_key_missing',
    `Provider '${providerId}' has no API key on this server. The user sets it with PUT /api/providers/${providerId}/api-key (keys never go through the chat).`,
    { providerId },
  );
}

import type { ModelRef, ProviderKind, ReasoningEffort } from '@oneclaw/core';

export type { ModelRef, ProviderKind, ReasoningEffort };

/** A model of a provider, as GET /api/providers lists it. */
export interface ModelView {
  readonly modelId: string;
  readonly displayName?: string;
  /** The context window the provider's model list states for it (compaction plans with it). */
  readonly contextWindowTokens?: number;
  /** `environment`: ONECLAW_MODEL (or the vendor default) of the environment provider. */
  readonly source: 'environment' | 'fetched' | 'added';
  readonly isDefault: boolean;
  /** The reasoning asked of it (PATCH /api/providers/:id/models/:modelId); absent: nothing is asked, the provider's default. */
  readonly reasoning?: ReasoningEffort;
}

/** A provider as the API shows it: never its key, only whether there is one. */
export interface ProviderView {
  readonly providerId: string;
  readonly name: string;
  readonly kind: ProviderKind;
  readonly apiBaseUrl: string;
  readonly isActive: boolean;
  /** `environment`: configured by environment variables, read-only here. */
  readonly definedBy: 'environment' | 'configuration';
  /**
   * `set`: a key is stored on this server; `set_elsewhere`: a key was set through another replica
   * (this one does not have it); `from_environment`: the variable named in `keyVariable`.
   */
  readonly apiKey: 'set' | 'not_set' | 'set_elsewhere' | 'from_environment';
  readonly keyVariable?: string;
  /**
   * For screens that only need a yes or no: true when this server can use a key (`apiKey` is
   * `set` or `from_environment`); a key set through another replica does not count.
   */
  readonly hasApiKey: boolean;
  readonly models: readonly ModelView[];
}

/** GET /api/providers: every provider (the environment one first) and the default model. */
export interface ProvidersAnswer {
  readonly providers: readonly ProviderView[];
  readonly defaultModel: ModelRef | null;
}

/** POST /api/providers/:id/models and /models/fetch: the provider's models after the change. */
export interface ModelsAnswer {
  readonly models: readonly ModelView[];
}

import type { AgentChanges, ProviderKind, ReasoningEffort } from './config-events';

export interface ConfiguredProvider {
  readonly providerId: string;
  readonly name: string;
  readonly kind: ProviderKind;
  readonly apiBaseUrl: string;
  readonly isActive: boolean;
  /** A key was stored for it (in the secret store of the server that took it). */
  readonly apiKeySet: boolean;
  /** The event that recorded the current key: the secret store keeps it with the key, so a key left over from before is recognised as stale. */
  readonly apiKeyEventId?: string;
  readonly createdAt: string;
}

export interface ConfiguredModel {
  readonly modelId: string;
  readonly displayName?: string;
  /** The context window the provider's model list states for it (fetched models only). */
  readonly contextWindowTokens?: number;
  /** `fetched` from the provider's model-list API, or `added` by hand. */
  readonly source: 'fetched' | 'added';
}

export interface ConfiguredAgent {
  readonly agentId: string;
  readonly name: string;
  readonly description?: string;
  readonly systemPrompt: string;
  readonly preferredProviderId?: string;
  readonly preferredModelId?: string;
  /** Set by an update; absent: every tool. */
  readonly allowedTools?: readonly string[];
  readonly createdAt: string;
}

/** What updates changed on an agent defined outside the stream; `null` means cleared. */
export type AgentOverlay = AgentChanges;

export interface ModelRef {
  readonly providerId: string;
  readonly modelId: string;
}

/**
 * The configuration as its stream says it is. Built only by `evolveConfig`; never stored.
 * Secrets are not part of it: only whether a key or variable was set.
 */
export interface ConfigState {
  /** Providers created through the configuration, in creation order. */
  readonly providers: ReadonlyMap<string, ConfiguredProvider>;
  /** Known models per provider id (the provider may be defined outside the stream). */
  readonly models: ReadonlyMap<string, readonly ConfiguredModel[]>;
  readonly defaultModel: ModelRef | null;
  /**
   * Reasoning asked of a model: provider id → model id → effort. Kept apart from the model lists,
   * so a new fetch keeps it; a model without an entry is asked for nothing (the provider's default).
   */
  readonly modelReasoning: ReadonlyMap<string, ReadonlyMap<string, ReasoningEffort>>;
  /** Agents created through the configuration, in creation order. */
  readonly agents: ReadonlyMap<string, ConfiguredAgent>;
  /** Changes to agents defined outside the stream (the default agent, agents.json). */
  readonly agentOverlays: ReadonlyMap<string, AgentOverlay>;
  readonly settings: ReadonlyMap<string, string>;
  /**
   * Tool environment variables set through the configuration: name → id of the event that set
   * the current value (the secret store keeps it with the value, so a stale value is recognised).
   */
  readonly envVars: ReadonlyMap<string, string>;
  readonly disabledTools: ReadonlySet<string>;
  readonly disabledGroups: ReadonlySet<string>;
  /** Events evolve could not read (unknown type, malformed data): skipped, counted. */
  readonly skippedEvents: number;
  readonly eventCount: number;
}

export const initialConfigState: ConfigState = Object.freeze({
  providers: new Map(),
  models: new Map(),
  defaultModel: null,
  modelReasoning: new Map(),
  agents: new Map(),
  agentOverlays: new Map(),
  settings: new Map(),
  envVars: new Map<string, string>(),
  disabledTools: new Set<string>(),
  disabledGroups: new Set<string>(),
  skippedEvents: 0,
  eventCount: 0,
});

/** The reasoning effort set for a model; undefined: ask for nothing. */
export function reasoningOf(state: ConfigState, providerId: string, modelId: string): ReasoningEffort | undefined {
  return state.modelReasoning.get(providerId)?.get(modelId);
}

export function modelsOf(state: ConfigState, providerId: string): readonly ConfiguredModel[] {
  return state.models.get(providerId) ?? [];
}

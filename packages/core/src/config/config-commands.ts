import type { AgentChanges, ModelEntry, ProviderKind, ReasoningEffort, ToolTargetKind } from './config-events';

/**
 * Commands of the configuration aggregate. Ids of new things (providers, agents) come with the
 * command, so deciding stays pure. Some things live outside the stream (the provider configured
 * by environment variables, the default agent and the agents of agents.json): a command that
 * targets one says so with `outsideStream`, and the caller has checked that it exists.
 */
export interface CreateProvider {
  readonly type: 'CreateProvider';
  readonly providerId: string;
  readonly name: string;
  readonly kind: ProviderKind;
  readonly apiBaseUrl: string;
}

/**
 * Who asked for a change: the user (the HTTP API behind the settings screen) or the model (the
 * chat's config tools, whose arguments anyone who can put text in front of the model may steer).
 */
export type ConfigRequester = 'user' | 'model';

/**
 * `requestedBy` is required: a stored key stays bound to the address the user gave it, so only
 * the user may move a keyed provider (decideConfig refuses the model with `key_bound_to_url`).
 */
export interface UpdateProvider {
  readonly type: 'UpdateProvider';
  readonly providerId: string;
  readonly requestedBy: ConfigRequester;
  readonly name?: string;
  readonly apiBaseUrl?: string;
  readonly isActive?: boolean;
}

export interface DeleteProvider {
  readonly type: 'DeleteProvider';
  readonly providerId: string;
}

/** Records that a key was stored (`present: true`) or removed; never the key. */
export interface RecordProviderApiKey {
  readonly type: 'RecordProviderApiKey';
  readonly providerId: string;
  readonly present: boolean;
}

export interface RecordFetchedModels {
  readonly type: 'RecordFetchedModels';
  readonly providerId: string;
  readonly models: readonly ModelEntry[];
  readonly outsideStream?: boolean;
}

export interface AddModel {
  readonly type: 'AddModel';
  readonly providerId: string;
  readonly modelId: string;
  readonly displayName?: string;
  readonly outsideStream?: boolean;
}

export interface DeleteModel {
  readonly type: 'DeleteModel';
  readonly providerId: string;
  readonly modelId: string;
}

/** For a provider outside the stream the caller has also checked that it offers the model. `null`: the provider's default. */
export interface SetModelReasoning {
  readonly type: 'SetModelReasoning';
  readonly providerId: string;
  readonly modelId: string;
  readonly effort: ReasoningEffort | null;
  readonly outsideStream?: boolean;
}

/** For a provider outside the stream the caller has also checked that it offers the model. */
export interface SetDefaultModel {
  readonly type: 'SetDefaultModel';
  readonly providerId: string;
  readonly modelId: string;
  readonly outsideStream?: boolean;
}

export interface CreateAgent {
  readonly type: 'CreateAgent';
  readonly agentId: string;
  readonly name: string;
  readonly description?: string;
  readonly systemPrompt: string;
}

export interface UpdateAgent {
  readonly type: 'UpdateAgent';
  readonly agentId: string;
  readonly changes: AgentChanges;
  readonly outsideStream?: boolean;
}

export interface DeleteAgent {
  readonly type: 'DeleteAgent';
  readonly agentId: string;
  readonly outsideStream?: boolean;
}

export interface SetSetting {
  readonly type: 'SetSetting';
  readonly key: string;
  readonly value: string;
}

export interface SetEnvVar {
  readonly type: 'SetEnvVar';
  readonly name: string;
}

export interface DeleteEnvVar {
  readonly type: 'DeleteEnvVar';
  readonly name: string;
}

/** The caller has checked that the tool or group exists in the registry. */
export interface SetToolEnabled {
  readonly type: 'SetToolEnabled';
  readonly name: string;
  readonly target: ToolTargetKind;
  readonly enabled: boolean;
}

export type ConfigCommand =
  | CreateProvider
  | UpdateProvider
  | DeleteProvider
  | RecordProviderApiKey
  | RecordFetchedModels
  | AddModel
  | DeleteModel
  | SetModelReasoning
  | SetDefaultModel
  | CreateAgent
  | UpdateAgent
  | DeleteAgent
  | SetSetting
  | SetEnvVar
  | DeleteEnvVar
  | SetToolEnabled;

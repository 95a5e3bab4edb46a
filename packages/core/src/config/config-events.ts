import type { EventEnvelope } from '../events/event-envelope';

/** The one stream that holds every configuration change (audited like sessions, never secret). */
export const CONFIG_STREAM_ID = 'config';

/** Schema version written into new configuration events; readers accept this version and older. */
export const CONFIG_EVENT_SCHEMA_VERSION = 1;

/** The wire formats a configured provider can speak (OpenAI covers every OpenAI-compatible server). */
export type ProviderKind = 'openai' | 'anthropic' | 'gemini';
export const PROVIDER_KINDS: readonly ProviderKind[] = ['openai', 'anthropic', 'gemini'];

export interface ModelEntry {
  readonly modelId: string;
  readonly displayName?: string;
  /**
   * The model's context window (input tokens) where the provider's model list states it (Gemini
   * `inputTokenLimit`, OpenRouter-style `context_length`, ...); compaction prefers it to the
   * built-in table. Absent in lists recorded before it was read.
   */
  readonly contextWindowTokens?: number;
}

/**
 * How hard a model is asked to think before it answers (issue 17's note: Anthropic and Gemini
 * were never asked). Each provider maps it to its own field: OpenAI `reasoning_effort`,
 * Anthropic `thinking.budget_tokens`, Gemini `thinkingConfig.thinkingBudget` (docs/configuration.md).
 */
export type ReasoningEffort = 'low' | 'medium' | 'high';
export const REASONING_EFFORTS: readonly ReasoningEffort[] = ['low', 'medium', 'high'];

/** A context window a model list may state: whole tokens in the range ONECLAW_CONTEXT_WINDOW_TOKENS accepts. */
export function isContextWindowTokens(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1000 && value <= 100_000_000;
}

/** Fields of an agent a change may touch; `null` clears an optional field. */
export interface AgentChanges {
  readonly name?: string;
  readonly description?: string | null;
  readonly systemPrompt?: string;
  readonly preferredProviderId?: string | null;
  readonly preferredModelId?: string | null;
  /** The tools the agent may see and call (`load_tool_group` included to use groups); `null`: every tool. */
  readonly allowedTools?: readonly string[] | null;
}

export type ToolTargetKind = 'tool' | 'group';

export type ProviderCreated = EventEnvelope<'ProviderCreated', { readonly providerId: string; readonly name: string; readonly kind: ProviderKind; readonly apiBaseUrl: string }>;
/** Only the fields that changed are present. */
export type ProviderUpdated = EventEnvelope<'ProviderUpdated', { readonly providerId: string; readonly name?: string; readonly apiBaseUrl?: string; readonly isActive?: boolean }>;
export type ProviderDeleted = EventEnvelope<'ProviderDeleted', { readonly providerId: string }>;
/** That a key was stored for the provider; the key itself lives in the secret store, never here. */
export type ProviderApiKeySet = EventEnvelope<'ProviderApiKeySet', { readonly providerId: string }>;
export type ProviderApiKeyRemoved = EventEnvelope<'ProviderApiKeyRemoved', { readonly providerId: string }>;
/** The provider's model list as its API returned it; replaces the previously fetched models. */
export type ModelsFetched = EventEnvelope<'ModelsFetched', { readonly providerId: string; readonly models: readonly ModelEntry[] }>;
export type ModelAdded = EventEnvelope<'ModelAdded', { readonly providerId: string; readonly modelId: string; readonly displayName?: string }>;
export type ModelDeleted = EventEnvelope<'ModelDeleted', { readonly providerId: string; readonly modelId: string }>;
/** `effort: null`: back to the provider's default (the request asks for nothing). */
export type ModelReasoningSet = EventEnvelope<'ModelReasoningSet', { readonly providerId: string; readonly modelId: string; readonly effort: ReasoningEffort | null }>;
export type DefaultModelSet = EventEnvelope<'DefaultModelSet', { readonly providerId: string; readonly modelId: string }>;
export type AgentCreated = EventEnvelope<'AgentCreated', { readonly agentId: string; readonly name: string; readonly description?: string; readonly systemPrompt: string }>;
/** `definedOutside`: the agent is the default one or comes from agents.json; the change is an overlay. */
export type AgentUpdated = EventEnvelope<'AgentUpdated', { readonly agentId: string; readonly changes: AgentChanges; readonly definedOutside: boolean }>;
export type AgentDeleted = EventEnvelope<'AgentDeleted', { readonly agentId: string }>;
export type SettingSet = EventEnvelope<'SettingSet', { readonly key: string; readonly value: string }>;
/** That a tool environment variable was given a value (its name only; the value is in the secret store). */
export type EnvVarSet = EventEnvelope<'EnvVarSet', { readonly name: string }>;
export type EnvVarDeleted = EventEnvelope<'EnvVarDeleted', { readonly name: string }>;
export type ToolEnablementChanged = EventEnvelope<'ToolEnablementChanged', { readonly name: string; readonly target: ToolTargetKind; readonly enabled: boolean }>;

export type ConfigEvent =
  | ProviderCreated
  | ProviderUpdated
  | ProviderDeleted
  | ProviderApiKeySet
  | ProviderApiKeyRemoved
  | ModelsFetched
  | ModelAdded
  | ModelDeleted
  | ModelReasoningSet
  | DefaultModelSet
  | AgentCreated
  | AgentUpdated
  | AgentDeleted
  | SettingSet
  | EnvVarSet
  | EnvVarDeleted
  | ToolEnablementChanged;

export type ConfigEventType = ConfigEvent['type'];

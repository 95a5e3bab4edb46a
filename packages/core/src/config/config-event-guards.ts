import type { EventEnvelope } from '../events/event-envelope';
import { CONFIG_EVENT_SCHEMA_VERSION, isContextWindowTokens, PROVIDER_KINDS, REASONING_EFFORTS, type ConfigEvent, type ProviderKind, type ReasoningEffort } from './config-events';

/**
 * Narrows a stored envelope to a configuration event, checking the fields evolve relies on.
 * Null for an unknown type, malformed data or a newer schema, so the projection skips it.
 */
export function asConfigEvent(event: EventEnvelope): ConfigEvent | null {
  const d = event.data as Record<string, unknown> | null;
  if (d === null || typeof d !== 'object') return null;
  if ((event.metadata?.schemaVersion ?? 1) > CONFIG_EVENT_SCHEMA_VERSION) return null;
  const ok = ((): boolean => {
    switch (event.type) {
      case 'ProviderCreated':
        return str(d.providerId) && str(d.name) && PROVIDER_KINDS.includes(d.kind as ProviderKind) && str(d.apiBaseUrl);
      case 'ProviderUpdated':
        return str(d.providerId) && optional(d.name, str) && optional(d.apiBaseUrl, str) && optional(d.isActive, (v) => typeof v === 'boolean');
      case 'ProviderDeleted':
      case 'ProviderApiKeySet':
      case 'ProviderApiKeyRemoved':
        return str(d.providerId);
      case 'ModelsFetched':
        return str(d.providerId) && Array.isArray(d.models) && d.models.every((m) => isModel(m));
      case 'ModelAdded':
        return str(d.providerId) && isModel(d);
      case 'ModelReasoningSet':
        return str(d.providerId) && str(d.modelId) && (d.effort === null || REASONING_EFFORTS.includes(d.effort as ReasoningEffort));
      case 'ModelDeleted':
      case 'DefaultModelSet':
        return str(d.providerId) && str(d.modelId);
      case 'AgentCreated':
        return str(d.agentId) && str(d.name) && str(d.systemPrompt) && optional(d.description, str);
      case 'AgentUpdated':
        return (
          str(d.agentId) &&
          typeof d.changes === 'object' &&
          d.changes !== null &&
          typeof d.definedOutside === 'boolean' &&
          allowedToolsOk((d.changes as Record<string, unknown>).allowedTools)
        );
      case 'AgentDeleted':
        return str(d.agentId);
      case 'SettingSet':
        return str(d.key) && typeof d.value === 'string';
      case 'EnvVarSet':
      case 'EnvVarDeleted':
        return str(d.name);
      case 'ToolEnablementChanged':
        return str(d.name) && (d.target === 'tool' || d.target === 'group') && typeof d.enabled === 'boolean';
      default:
        return false;
    }
  })();
  return ok ? (event as ConfigEvent) : null;
}

/** Absent, null (every tool) or a list of names: the agent directory turns the list into a set. */
function allowedToolsOk(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.every(str));
}

function isModel(m: unknown): boolean {
  const model = m as Record<string, unknown> | null;
  return model !== null && typeof model === 'object' && str(model.modelId) && optional(model.displayName, str) && optional(model.contextWindowTokens, isContextWindowTokens);
}

function optional(value: unknown, check: (v: unknown) => boolean): boolean {
  return value === undefined || check(value);
}

function str(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

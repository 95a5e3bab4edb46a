import type { EventEnvelope } from '../events/event-envelope';
import { asConfigEvent } from './config-event-guards';
import type { AgentChanges, ReasoningEffort } from './config-events';
import type { AgentOverlay, ConfigState, ConfiguredAgent, ConfiguredModel, ConfiguredProvider } from './config-state';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Draft extends Mutable<
  Omit<ConfigState, 'providers' | 'models' | 'modelReasoning' | 'agents' | 'agentOverlays' | 'settings' | 'envVars' | 'disabledTools' | 'disabledGroups'>
> {
  providers: Map<string, ConfiguredProvider>;
  models: Map<string, readonly ConfiguredModel[]>;
  modelReasoning: Map<string, ReadonlyMap<string, ReasoningEffort>>;
  agents: Map<string, ConfiguredAgent>;
  agentOverlays: Map<string, AgentOverlay>;
  settings: Map<string, string>;
  envVars: Map<string, string>;
  disabledTools: Set<string>;
  disabledGroups: Set<string>;
}

/**
 * Applies one configuration event and returns a new state; the given one is left as it was.
 * Total: an event it cannot read is counted in `skippedEvents` and otherwise ignored.
 */
export function evolveConfig(state: ConfigState, envelope: EventEnvelope): ConfigState {
  const draft: Draft = {
    ...state,
    providers: new Map(state.providers),
    models: new Map(state.models),
    modelReasoning: new Map(state.modelReasoning),
    agents: new Map(state.agents),
    agentOverlays: new Map(state.agentOverlays),
    settings: new Map(state.settings),
    envVars: new Map(state.envVars),
    disabledTools: new Set(state.disabledTools),
    disabledGroups: new Set(state.disabledGroups),
  };
  draft.eventCount++;
  const event = asConfigEvent(envelope);
  if (event === null) {
    draft.skippedEvents++;
    return draft;
  }
  const provider = (id: string) => draft.providers.get(id);
  switch (event.type) {
    case 'ProviderCreated':
      draft.providers.set(event.data.providerId, { ...event.data, isActive: true, apiKeySet: false, createdAt: event.metadata.occurredAt });
      break;
    case 'ProviderUpdated': {
      const current = provider(event.data.providerId);
      if (current) draft.providers.set(current.providerId, { ...current, ...definedOnly(event.data) });
      break;
    }
    case 'ProviderDeleted':
      deleteProvider(draft, event.data.providerId);
      break;
    case 'ProviderApiKeySet':
    case 'ProviderApiKeyRemoved': {
      const current = provider(event.data.providerId);
      if (!current) break;
      const { apiKeyEventId: _previous, ...rest } = current;
      draft.providers.set(
        current.providerId,
        event.type === 'ProviderApiKeySet' ? { ...rest, apiKeySet: true, apiKeyEventId: event.metadata.eventId } : { ...rest, apiKeySet: false },
      );
      break;
    }
    case 'ModelsFetched': {
      const fetchedIds = new Set(event.data.models.map((m) => m.modelId));
      const added = (draft.models.get(event.data.providerId) ?? []).filter((m) => m.source === 'added' && !fetchedIds.has(m.modelId));
      draft.models.set(event.data.providerId, [...event.data.models.map((m): ConfiguredModel => ({ ...m, source: 'fetched' })), ...added]);
      break;
    }
    case 'ModelAdded': {
      const { providerId, modelId, displayName } = event.data;
      const models = draft.models.get(providerId) ?? [];
      const entry: ConfiguredModel = { modelId, ...(displayName !== undefined ? { displayName } : {}), source: 'added' };
      const at = models.findIndex((m) => m.modelId === modelId);
      draft.models.set(providerId, at < 0 ? [...models, entry] : models.map((m, i) => (i === at ? entry : m)));
      break;
    }
    case 'ModelDeleted': {
      const { providerId, modelId } = event.data;
      draft.models.set(
        providerId,
        (draft.models.get(providerId) ?? []).filter((m) => m.modelId !== modelId),
      );
      if (draft.defaultModel?.providerId === providerId && draft.defaultModel.modelId === modelId) draft.defaultModel = null;
      setReasoning(draft, providerId, modelId, null);
      break;
    }
    case 'ModelReasoningSet':
      setReasoning(draft, event.data.providerId, event.data.modelId, event.data.effort);
      break;
    case 'DefaultModelSet':
      draft.defaultModel = { providerId: event.data.providerId, modelId: event.data.modelId };
      break;
    case 'AgentCreated':
      draft.agents.set(event.data.agentId, { ...event.data, createdAt: event.metadata.occurredAt });
      break;
    case 'AgentUpdated': {
      const { agentId, changes } = event.data;
      const created = draft.agents.get(agentId);
      if (created) draft.agents.set(agentId, applyChanges(created, changes));
      else if (event.data.definedOutside) draft.agentOverlays.set(agentId, { ...(draft.agentOverlays.get(agentId) ?? {}), ...definedOnly(changes) });
      break;
    }
    case 'AgentDeleted':
      draft.agents.delete(event.data.agentId);
      break;
    case 'SettingSet':
      draft.settings.set(event.data.key, event.data.value);
      break;
    case 'EnvVarSet':
      draft.envVars.set(event.data.name, event.metadata.eventId);
      break;
    case 'EnvVarDeleted':
      draft.envVars.delete(event.data.name);
      break;
    case 'ToolEnablementChanged': {
      const set = event.data.target === 'group' ? draft.disabledGroups : draft.disabledTools;
      if (event.data.enabled) set.delete(event.data.name);
      else set.add(event.data.name);
      break;
    }
  }
  return draft;
}

/** A deleted provider takes its models with it, and nothing keeps pointing at it. */
function deleteProvider(draft: Draft, providerId: string): void {
  draft.providers.delete(providerId);
  draft.models.delete(providerId);
  draft.modelReasoning.delete(providerId);
  if (draft.defaultModel?.providerId === providerId) draft.defaultModel = null;
  const forget = (changes: AgentChanges): AgentChanges => ({ ...changes, preferredProviderId: null, preferredModelId: null });
  for (const [id, agent] of draft.agents) {
    if (agent.preferredProviderId === providerId) draft.agents.set(id, applyChanges(agent, forget({})));
  }
  for (const [id, overlay] of draft.agentOverlays) {
    if (overlay.preferredProviderId === providerId) draft.agentOverlays.set(id, forget(overlay));
  }
}

function setReasoning(draft: Draft, providerId: string, modelId: string, effort: ReasoningEffort | null): void {
  const models = new Map(draft.modelReasoning.get(providerId));
  if (effort === null) models.delete(modelId);
  else models.set(modelId, effort);
  if (models.size === 0) draft.modelReasoning.delete(providerId);
  else draft.modelReasoning.set(providerId, models);
}

function applyChanges(agent: ConfiguredAgent, changes: AgentChanges): ConfiguredAgent {
  const next: Record<string, unknown> = { ...agent };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  return next as unknown as ConfiguredAgent;
}

function definedOnly<T extends object>(data: T): Partial<T> {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as Partial<T>;
}

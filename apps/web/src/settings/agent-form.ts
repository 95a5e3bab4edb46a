/** Pure helpers of the Agents screen: the edit form's state and the PATCH it turns into. */
import { choiceValue, parseChoice } from './provider-model';
import type { AgentSource, AgentView } from '@oneclaw/api-contract';

export interface AgentForm {
  readonly name: string;
  readonly description: string;
  readonly systemPrompt: string;
  /** True: the agent may use every tool (no allow-list). */
  readonly allTools: boolean;
  readonly allowedTools: readonly string[];
  /** A `choiceValue` of provider and model, or '' for "the default model". */
  readonly preferredModel: string;
}

/** What PATCH /api/agents/:id takes (AgentChanges); `null` clears an optional field. */
export interface AgentChanges {
  name?: string;
  description?: string | null;
  systemPrompt?: string;
  allowedTools?: string[] | null;
  preferredProviderId?: string | null;
  preferredModelId?: string | null;
}

export function formOf(agent: AgentView): AgentForm {
  return {
    name: agent.name,
    description: agent.description ?? '',
    systemPrompt: agent.systemPrompt,
    allTools: agent.allowedTools === undefined,
    allowedTools: [...(agent.allowedTools ?? [])],
    preferredModel: agent.preferredProviderId && agent.preferredModelId ? choiceValue({ providerId: agent.preferredProviderId, modelId: agent.preferredModelId }) : '',
  };
}

/**
 * Only the fields the user changed, so saving an agent defined outside the configuration (the
 * default one, agents.json) records a small overlay and not a copy of everything. Whitespace
 * around the name and description is not a change worth recording.
 */
export function agentChanges(agent: AgentView, form: AgentForm): AgentChanges {
  const changes: AgentChanges = {};
  const name = form.name.trim();
  if (name !== agent.name) changes.name = name;
  const description = form.description.trim();
  if (description !== (agent.description ?? '')) changes.description = description === '' ? null : description;
  if (form.systemPrompt !== agent.systemPrompt) changes.systemPrompt = form.systemPrompt;

  const before = agent.allowedTools === undefined ? null : [...agent.allowedTools].sort();
  const after = form.allTools ? null : [...new Set(form.allowedTools)].sort();
  if (!sameList(before, after)) changes.allowedTools = after;

  const preferred = parseChoice(form.preferredModel);
  const was = agent.preferredProviderId && agent.preferredModelId ? { providerId: agent.preferredProviderId, modelId: agent.preferredModelId } : undefined;
  if (!preferred && was) {
    changes.preferredProviderId = null;
    changes.preferredModelId = null;
  } else if (preferred && (preferred.providerId !== was?.providerId || preferred.modelId !== was?.modelId)) {
    changes.preferredProviderId = preferred.providerId;
    changes.preferredModelId = preferred.modelId;
  }
  return changes;
}

export function agentFormErrors(form: Pick<AgentForm, 'name' | 'systemPrompt'>): Partial<Record<'name' | 'systemPrompt', string>> {
  const errors: Partial<Record<'name' | 'systemPrompt', string>> = {};
  if (form.name.trim() === '') errors.name = 'Give the agent a name.';
  if (form.systemPrompt.trim() === '') errors.systemPrompt = 'The system prompt says who the agent is; it cannot be empty.';
  return errors;
}

/**
 * The server says which agents can be deleted; a server that does not say allows it for agents
 * created through the configuration only (the default agent and agents.json are files).
 */
/** `deletable` is absent on servers that predate it: then only `config` agents are taken as deletable. */
export function isDeletable(agent: Pick<AgentView, 'source'> & Partial<Pick<AgentView, 'deletable'>>): boolean {
  return agent.deletable ?? agent.source === 'config';
}

export function sourceLabel(source: AgentSource | string): string {
  switch (source) {
    case 'default':
      return 'Built-in default';
    case 'file':
      return 'From agents.json';
    case 'config':
      return 'Created here';
    default:
      return source;
  }
}

/** Toggles one tool in the allow-list, keeping the list free of duplicates. */
export function toggleTool(list: readonly string[], name: string, allowed: boolean): string[] {
  const without = list.filter((n) => n !== name);
  return allowed ? [...without, name] : without;
}

function sameList(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

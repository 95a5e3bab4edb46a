import type { Agent, AgentSource } from '../../agents/agent-directory';

/** An agent as the HTTP API shows it: everything a settings screen edits, and whether it may be deleted. */
export interface AgentView {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  /** default, file (agents.json) or config (created through the API or create_agent): docs/configuration.md */
  readonly source: AgentSource;
  /** Only agents of the configuration can be deleted; the others can be changed (an overlay kept in the `config` stream). */
  readonly deletable: boolean;
  readonly systemPrompt: string;
  readonly preferredProviderId?: string;
  readonly preferredModelId?: string;
  readonly maxRounds: number;
  /** From agents.json only. */
  readonly model?: string;
  readonly allowedTools?: readonly string[];
}

export function agentView(a: Agent): AgentView {
  return {
    id: a.id,
    name: a.name,
    ...(a.description ? { description: a.description } : {}),
    source: a.source,
    deletable: a.source === 'config',
    systemPrompt: a.systemPrompt,
    ...(a.preferredProviderId ? { preferredProviderId: a.preferredProviderId } : {}),
    ...(a.preferredModelId ? { preferredModelId: a.preferredModelId } : {}),
    maxRounds: a.maxRounds,
    ...(a.model ? { model: a.model } : {}),
    ...(a.allowedTools ? { allowedTools: [...a.allowedTools] } : {}),
  };
}

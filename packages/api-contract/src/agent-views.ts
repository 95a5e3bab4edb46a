/** Where an agent is defined: the built-in default, `<data>/agents.json`, or the configuration (API, create_agent). */
export type AgentSource = 'default' | 'file' | 'config';

/** An agent as GET /api/agents (and create, update) shows it: everything a settings screen edits. */
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

/** GET /api/agents. */
export interface AgentsAnswer {
  readonly agents: readonly AgentView[];
}

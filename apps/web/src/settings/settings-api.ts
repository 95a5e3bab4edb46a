/**
 * The settings routes' answers as the screens read them (docs/api.md; the server's
 * `packages/server/src/config/queries/*-view.ts` and `sessions/queries/list-tools.query.ts`).
 * Written out rather than imported so the browser bundle needs nothing from the server package.
 */

export type ProviderKind = 'openai' | 'anthropic' | 'gemini';
export const PROVIDER_KINDS: readonly ProviderKind[] = ['openai', 'anthropic', 'gemini'];

export interface ModelView {
  readonly modelId: string;
  readonly displayName?: string;
  readonly source: 'environment' | 'fetched' | 'added';
  readonly isDefault: boolean;
}

export interface ProviderView {
  readonly providerId: string;
  readonly name: string;
  readonly kind: ProviderKind;
  readonly apiBaseUrl: string;
  readonly isActive: boolean;
  /** `environment`: set by the server's environment variables, read-only here. */
  readonly definedBy: 'environment' | 'configuration';
  readonly apiKey: 'set' | 'not_set' | 'set_elsewhere' | 'from_environment';
  readonly keyVariable?: string;
  readonly hasApiKey?: boolean;
  readonly models: readonly ModelView[];
}

export interface ModelRef {
  readonly providerId: string;
  readonly modelId: string;
}

export interface ProvidersAnswer {
  readonly providers: readonly ProviderView[];
  readonly defaultModel: ModelRef | null;
}

export type AgentSource = 'default' | 'file' | 'config';

export interface AgentView {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly source: AgentSource;
  /** Absent on servers that predate it: then only `config` agents are taken as deletable. */
  readonly deletable?: boolean;
  readonly systemPrompt: string;
  readonly allowedTools?: readonly string[];
  readonly preferredProviderId?: string;
  readonly preferredModelId?: string;
  readonly maxRounds: number;
  readonly model?: string;
}

export interface AgentsAnswer {
  readonly agents: readonly AgentView[];
}

export interface ToolView {
  readonly name: string;
  readonly description: string;
  readonly group?: string;
  readonly enabled: boolean;
}

export interface ToolProblem {
  readonly severity: 'error' | 'warning';
  readonly tool?: string;
  readonly message: string;
}

export interface ToolSourceView {
  readonly fileName: string;
  /** `built-in` (TypeScript), `js-built-in` (shipped JS files), `js-user` (the user's tools folder). */
  readonly kind: string;
  readonly group?: string;
  readonly description?: string;
  readonly tools: readonly ToolView[];
  readonly problems: readonly ToolProblem[];
}

export interface ToolsAnswer {
  readonly sources: readonly ToolSourceView[];
}

export interface ToolGroupView {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly toolNames: readonly string[];
  readonly enabled: boolean;
  readonly source?: unknown;
  readonly schemaTokens?: number;
}

export interface ToolGroupsAnswer {
  readonly groups: readonly ToolGroupView[];
  readonly schemaTokens?: { readonly format?: string; readonly core?: number; readonly all?: number };
}

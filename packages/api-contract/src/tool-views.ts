import type { ProviderKind } from '@oneclaw/core';

/**
 * Where a tool or group comes from. `built-in`: TypeScript tools shipped with the server;
 * `js-built-in`: the shipped JS manifests; `js-user`: files in the user's tools folder.
 */
export type ToolSourceKind = 'built-in' | 'js-built-in' | 'js-user';

/** One entry of GET /api/tool-groups. */
export interface ToolGroupView {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly toolNames: readonly string[];
  readonly enabled: boolean;
  readonly source: { readonly kind: ToolSourceKind; readonly fileName?: string };
  /** Tokens of the schemas of the group's tools (every one in toolNames), counted as ModelRequested.schemaTokens is. */
  readonly schemaTokens: number;
}

/**
 * Tool-schema tokens in one provider format (the default model's provider, else the environment
 * provider, else openai), counted exactly as the agent loop counts `ModelRequested.schemaTokens`:
 * `core` is what a fresh session is sent (enabled core tools), `all` what a session with every
 * group loaded would be sent (every enabled tool). The audit view's baseline.
 */
export interface SchemaTokenTotals {
  readonly format: ProviderKind;
  readonly core: number;
  readonly all: number;
}

/** GET /api/tool-groups. */
export interface ToolGroupsAnswer {
  readonly groups: readonly ToolGroupView[];
  readonly schemaTokens: SchemaTokenTotals;
}

/** One tool of a source file in GET /api/tools. */
export interface ToolView {
  readonly name: string;
  readonly description: string;
  readonly group?: string;
  readonly enabled: boolean;
}

/** A manifest problem of a source file (a skipped entry, a refused name...). */
export interface ToolProblem {
  readonly severity: 'error' | 'warning';
  readonly tool?: string;
  readonly message: string;
}

/** One source file (a JS manifest, or the TypeScript built-ins) and its tools: the settings screen's sections. */
export interface ToolSourceView {
  readonly fileName: string;
  readonly kind: ToolSourceKind;
  readonly group?: string;
  /** The group's description, when the file is a group file. */
  readonly description?: string;
  readonly tools: readonly ToolView[];
  readonly problems: readonly ToolProblem[];
}

/** GET /api/tools. */
export interface ToolsAnswer {
  readonly sources: readonly ToolSourceView[];
}

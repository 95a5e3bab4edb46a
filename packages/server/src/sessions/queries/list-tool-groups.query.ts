import { Query } from '@nestjs/cqrs';
import type { ProviderName, ToolSourceKind } from '@oneclaw/tool-registry';

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
  readonly format: ProviderName;
  readonly core: number;
  readonly all: number;
}

export class ListToolGroupsQuery extends Query<{ readonly groups: readonly ToolGroupView[]; readonly schemaTokens: SchemaTokenTotals }> {}

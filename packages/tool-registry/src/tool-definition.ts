import type { JsonSchemaObject } from './json-schema';

/** snake_case, starting with a letter: the one shape every provider accepts as a function name. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
export const MAX_TOOL_NAME_LENGTH = 64;
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/** What a tool declares about itself; provider-agnostic (T1). */
export interface ToolDefinition {
  readonly name: string;
  /** One sentence the model reads to decide whether to call the tool. */
  readonly description: string;
  /** JSON Schema of the arguments; the root is always `type: "object"`. */
  readonly parameters: JsonSchemaObject;
  /** Wall-clock limit for one call; defaults to 30 000 ms. */
  readonly timeoutMs?: number;
  /** Permissions the permission checker must grant before each call (most tools need none). */
  readonly requiredPermissions?: readonly string[];
}

/** A definition as the registry holds it: defaults applied, deep-frozen. */
export interface ResolvedToolDefinition extends ToolDefinition {
  readonly timeoutMs: number;
  readonly requiredPermissions: readonly string[];
}

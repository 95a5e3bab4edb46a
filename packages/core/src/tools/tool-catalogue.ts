/**
 * What the domain needs to know about tools, and no more: the registry (tool-registry package)
 * implements it, tests use a small fixed one. Order matters: it is registration order, which
 * keeps the tool list stable between requests (provider prompt caches stay warm).
 */
export interface ToolCatalogue {
  /** Tools that belong to no group, always offered, in registration order. */
  coreToolNames(): readonly string[];
  hasGroup(groupName: string): boolean;
  /** The group's tools in registration order; empty for an unknown group. */
  groupToolNames(groupName: string): readonly string[];
  /** Every group name in registration order (for error messages that list them). */
  groupNames(): readonly string[];
  /** False for a tool the operator disabled (directly or through its group). */
  isToolEnabled(toolName: string): boolean;
}

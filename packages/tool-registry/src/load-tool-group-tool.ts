import type { Tool } from './tool';
import type { ToolDefinition } from './tool-definition';
import { toolError, toolSuccess, type ToolResult } from './tool-result';
import type { ToolRegistry } from './tool-registry';

export const LOAD_TOOL_GROUP = 'load_tool_group';

/** RFC-040's meaning in fewer words (issue 17, F1): the group must be loaded before its tools are used. */
export const loadToolGroupDefinition: ToolDefinition = {
  name: LOAD_TOOL_GROUP,
  description: 'Load a tool group; its tools can only be used after loading, and stay for this conversation.',
  parameters: {
    type: 'object',
    properties: { group_name: { type: 'string' } },
    required: ['group_name'],
  },
  timeoutMs: 5_000,
  requiredPermissions: [],
};

/**
 * The meta-tool that opens a group (always a core tool). It only reads the registry: the
 * session records `ToolGroupLoaded` from its success, so loading changes nothing here and a
 * repeated or parallel load gives the same answer without duplicates (G3, G4, G5).
 */
export function createLoadToolGroupTool(registry: ToolRegistry): Tool {
  return {
    definition: loadToolGroupDefinition,
    // The seed answers a missing group_name with `missing_parameter`, not a schema error.
    validatesOwnParameters: true,
    execute: async (params, context) => loadToolGroup(registry, params.group_name, context.allowedTools),
  };
}

function loadToolGroup(registry: ToolRegistry, value: unknown, allowed: ReadonlySet<string> | undefined): ToolResult {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return toolError('missing_parameter', "Required parameter 'group_name' is missing.");
  }
  if (typeof value !== 'string') {
    return toolError('validation_error', `Parameter 'group_name' must be a string naming a tool group, got ${JSON.stringify(value)}.`);
  }
  const name = value.trim();
  const group = registry.group(name);
  if (!group) {
    const available = registry.groupNames();
    return toolError('not_found', `Tool group '${name}' not found. Available groups: ${available.length > 0 ? available.join(', ') : '(none)'}`);
  }
  // An agent's allow-list narrows what it is told it got, so it never reaches for a tool it may not run (T5).
  const tools = registry.groupDefinitions(name).filter((d) => registry.isToolEnabled(d.name) && (!allowed || allowed.has(d.name)));
  if (tools.length === 0) return toolError('empty_group', `Tool group '${name}' has no available tools.`);
  const lines = tools.map((d) => `- ${d.name}: ${oneLine(d.description)}`);
  return toolSuccess(`Loaded ${tools.length} tools from group '${group.definition.displayName}':\n${lines.join('\n')}`);
}

/** A multi-line description would break the one-tool-per-line answer. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

import type { JsonSchemaObject } from '../json-schema';
import { createLoadToolGroupTool, LOAD_TOOL_GROUP } from '../load-tool-group-tool';
import type { ToolDefinition } from '../tool-definition';
import { ToolRegistry, type ToolRegistryOptions } from '../tool-registry';
import { CORE_TOOL_SPECS, GROUP_SPECS } from './catalogue-spec';
import { fakeTool } from './fake-tool';

export interface TestCatalogue {
  readonly registry: ToolRegistry;
  /** The seed's 13 core tools, in the seed's order. */
  readonly coreToolNames: readonly string[];
  /** Group name → its tool names, in registration order. */
  readonly groups: ReadonlyMap<string, readonly string[]>;
}

/** JS built-ins that are single-tool files (core tools from JS manifests in the origin app). */
const JS_CORE_TOOLS = new Set(['read_file', 'write_file', 'get_current_time', 'http_request']);

/**
 * A registry with the seed's shape and realistic schemas: 13 core tools (the real
 * load_tool_group among them), the built-in groups config (17), pdf (3), scheduled_tasks (5),
 * js_tool_management (4), and the ten Google groups (109 tools): 151 tools in 14 groups.
 * Tools other than load_tool_group are fakes that echo their arguments.
 */
export function createTestCatalogue(options: ToolRegistryOptions = {}): TestCatalogue {
  const registry = new ToolRegistry(options);
  const core = CORE_TOOL_SPECS.map(parseToolSpec);
  core.splice(1, 0, createLoadToolGroupTool(registry).definition);
  for (const definition of core) {
    const tool = definition.name === LOAD_TOOL_GROUP ? createLoadToolGroupTool(registry) : fakeTool(definition.name, definition);
    const source = JS_CORE_TOOLS.has(definition.name) ? ({ kind: 'js-built-in', fileName: `${definition.name}.json` } as const) : ({ kind: 'built-in' } as const);
    registry.register(tool, source);
  }
  for (const group of GROUP_SPECS) {
    const origin = group.kind === 'built-in' ? ({ kind: 'built-in' } as const) : ({ kind: 'js-built-in', fileName: `${group.name}.json` } as const);
    registry.registerGroup({ name: group.name, displayName: group.displayName, description: group.description }, origin);
    for (const definition of group.tools.map(parseToolSpec)) {
      registry.register(fakeTool(definition.name, definition), { ...origin, group: group.name });
    }
  }
  return { registry, coreToolNames: core.map((d) => d.name), groups: registry.toolGroups() };
}

/** Parses one `name | description | params` line of catalogue-spec.ts. */
export function parseToolSpec(line: string): ToolDefinition {
  const [name = '', description = '', params = ''] = line.split('|').map((part) => part.trim());
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  for (const raw of params
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [head = '', type = 'string'] = raw.split(':').map((p) => p.trim());
    const isRequired = head.endsWith('*');
    const paramName = isRequired ? head.slice(0, -1) : head;
    properties[paramName] = { ...schemaFor(type), description: humanize(paramName) };
    if (isRequired) required.push(paramName);
  }
  return { name, description, parameters: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) } };
}

function schemaFor(type: string): JsonSchemaObject {
  switch (type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return { type };
    case 'string[]':
      return { type: 'array', items: { type: 'string' } };
    case 'string[][]':
      return { type: 'array', items: { type: 'array', items: { type: 'string' } } };
    case 'object':
      return { type: 'object', additionalProperties: { type: 'string' } };
    case 'object[]':
      return { type: 'array', items: { type: 'object' } };
    default:
      return { type: 'string', enum: type.split('/') };
  }
}

function humanize(name: string): string {
  const words = name.replace(/_/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

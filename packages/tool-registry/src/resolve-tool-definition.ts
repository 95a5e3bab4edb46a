import { deepFreeze, isPlainObject, jsonCopy, type JsonSchemaObject } from './json-schema';
import { DEFAULT_TOOL_TIMEOUT_MS, MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN, type ResolvedToolDefinition } from './tool-definition';
import { ToolRegistryError } from './tool-registry-error';

/** setTimeout's ceiling; a larger value would fire immediately. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** Problems with a tool or group name, empty when it is fine. */
export function nameProblems(name: unknown, what: 'tool' | 'group'): string[] {
  if (typeof name !== 'string' || name.length === 0) return [`${what} name is required`];
  const problems: string[] = [];
  if (!TOOL_NAME_PATTERN.test(name)) {
    problems.push(`${what} name '${name}' must be snake_case: a lowercase letter, then lowercase letters, digits or '_'`);
  }
  if (name.length > MAX_TOOL_NAME_LENGTH) problems.push(`${what} name '${name}' is longer than ${MAX_TOOL_NAME_LENGTH} characters`);
  return problems;
}

/**
 * Checks a definition from any source (TypeScript or a JS manifest read from disk) and returns a
 * frozen JSON copy with defaults applied; later edits to the caller's object change nothing.
 */
export function resolveToolDefinition(definition: unknown): ResolvedToolDefinition {
  if (!isPlainObject(definition)) {
    throw new ToolRegistryError('invalid_tool_definition', 'A tool definition must be an object with name, description and parameters.');
  }
  const { name, description, parameters, timeoutMs, requiredPermissions } = definition;
  const problems = nameProblems(name, 'tool');
  if (typeof description !== 'string' || description.trim().length === 0) problems.push('description must be a non-empty string');
  const schema = isPlainObject(parameters) ? jsonCopy(parameters) : undefined;
  if (!isPlainObject(parameters)) {
    problems.push('parameters must be a JSON Schema object');
  } else if (!schema) {
    problems.push('parameters must be plain JSON (no cycles, no BigInt)');
  } else {
    if (schema.type !== 'object') problems.push(`parameters must have type "object" at the root (got ${JSON.stringify(schema.type) ?? 'none'})`);
    if (schema.properties !== undefined && !isPlainObject(schema.properties)) problems.push('parameters.properties must be an object');
    if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string'))) {
      problems.push('parameters.required must be an array of parameter names');
    }
  }
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)) {
    problems.push(`timeoutMs must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}`);
  }
  if (requiredPermissions !== undefined && !(Array.isArray(requiredPermissions) && requiredPermissions.every((p) => typeof p === 'string' && p.length > 0))) {
    problems.push('requiredPermissions must be an array of non-empty strings');
  }
  if (problems.length > 0) {
    const label = typeof name === 'string' && name ? `Tool '${name}'` : 'A tool';
    throw new ToolRegistryError('invalid_tool_definition', `${label} has an invalid definition: ${problems.join('; ')}.`, {
      name: typeof name === 'string' ? name : null,
      problems,
    });
  }
  return deepFreeze({
    name: name as string,
    description: description as string,
    parameters: schema as JsonSchemaObject,
    timeoutMs: (timeoutMs as number | undefined) ?? DEFAULT_TOOL_TIMEOUT_MS,
    requiredPermissions: [...((requiredPermissions as string[] | undefined) ?? [])],
  });
}

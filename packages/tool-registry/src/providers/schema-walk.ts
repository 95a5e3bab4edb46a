/** Keywords whose value is a map of subschemas, a subschema, or a list of subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_SINGLE = new Set([
  'items',
  'additionalProperties',
  'additionalItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']);

export type SchemaNode = Record<string, unknown>;

export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function childPath(path: string, ...parts: (string | number)[]): string {
  return parts.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), path);
}

/**
 * Copies a schema node, passing every subschema (and only subschemas: `default`, `enum` or
 * `example` values are data, never rewritten) through `map`.
 */
export function mapSubschemas(node: SchemaNode, path: string, map: (child: unknown, path: string) => unknown): SchemaNode {
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(key) && isSchemaNode(value)) {
      const mapped: SchemaNode = {};
      for (const [name, child] of Object.entries(value)) mapped[name] = map(child, childPath(path, key, name));
      out[key] = mapped;
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((child, i) => map(child, childPath(path, key, i)));
    } else if (SCHEMA_SINGLE.has(key) && isSchemaNode(value)) {
      out[key] = map(value, childPath(path, key));
    } else {
      out[key] = value;
    }
  }
  return out;
}

export function typesOf(node: SchemaNode): string[] {
  const type = node.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

import type { JsonSchemaObject } from '../json-schema';

/**
 * A small parameters schema that stands for an enormous one: `d_i` has two properties that both
 * `$ref` `d_{i+1}`, so inlining it gives 2^levels subschemas (18 levels: 1.7 KB of JSON, 262,144
 * subschemas inlined). Ajv compiles it at once (it compiles each definition once).
 */
export function explodingRefSchema(levels = 18): JsonSchemaObject {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    const next = { $ref: `#/$defs/d_${i + 1}` };
    $defs[`d_${i}`] = { type: 'object', properties: { a: next, b: next } };
  }
  $defs[`d_${levels}`] = { type: 'string' };
  return { type: 'object', $defs, properties: { root: { $ref: '#/$defs/d_0' } } };
}

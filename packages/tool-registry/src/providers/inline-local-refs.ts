import type { IssueReporter } from './schema-issue';
import { MAX_INLINED_SCHEMA_DEPTH, MAX_INLINED_SCHEMA_NODES, SchemaTooLargeError } from './schema-too-large-error';
import { isSchemaNode, mapSubschemas, type SchemaNode } from './schema-walk';

/**
 * Replaces each local `$ref` ("#/...") with the schema it points to, so every provider gets a
 * self-contained schema (Gemini accepts no `$ref` at all). A recursive reference cannot be
 * inlined: it becomes "any value" for the provider and is reported. The inlining is reported once
 * for the whole schema, not once per use: a definition used a thousand times is one change.
 *
 * Throws SchemaTooLargeError once the walk has met MAX_INLINED_SCHEMA_NODES subschemas (a `$ref`
 * and what it stands for count as two) or gone MAX_INLINED_SCHEMA_DEPTH levels deep (a hop
 * through a `$ref` is a level): the walk stops there, so its cost and its recursion stay bounded
 * whatever the schema's references multiply to.
 */
export function inlineLocalRefs(root: SchemaNode, report: IssueReporter): SchemaNode {
  let sawRef = false;
  let inlined = 0;
  let nodes = 0;
  const visit = (node: unknown, path: string, chain: readonly string[], depth: number): unknown => {
    if (!isSchemaNode(node)) return node;
    nodes += 1;
    if (nodes > MAX_INLINED_SCHEMA_NODES) {
      throw new SchemaTooLargeError(
        `the schema a model is sent (each $ref replaced by its definition) has more than ${MAX_INLINED_SCHEMA_NODES} subschemas; ` +
          'use each definition in fewer places, or describe the parameters more simply',
      );
    }
    if (depth > MAX_INLINED_SCHEMA_DEPTH) {
      throw new SchemaTooLargeError(
        `the schema a model is sent (each $ref replaced by its definition) nests more than ${MAX_INLINED_SCHEMA_DEPTH} levels deep, at '${path || '(root)'}'`,
      );
    }
    const ref = node.$ref;
    if (typeof ref === 'string') {
      sawRef = true;
      const { $ref: _ref, ...siblings } = node;
      const target = ref.startsWith('#') && !chain.includes(ref) ? resolvePointer(root, ref) : undefined;
      if (isSchemaNode(target)) {
        inlined += 1;
        // A hop through a $ref counts as a level too, so a long chain of references is bounded.
        return visit({ ...target, ...siblings }, path, [...chain, ref], depth + 1);
      }
      const why = chain.includes(ref) ? 'is recursive' : 'cannot be resolved inside the schema';
      report(path, '$ref', 'removed', `$ref '${ref}' ${why}; the provider is told any value is allowed here`);
      return visit(siblings, path, chain, depth);
    }
    return mapSubschemas(node, path, (child, childPath) => visit(child, childPath, chain, depth + 1));
  };
  // The definitions are only there to be referenced: they are read through `root`, never
  // walked themselves, and once their uses are inlined they are dead weight.
  const { $defs: _defs, definitions: _definitions, ...body } = root;
  const result = visit(body, '', [], 0) as SchemaNode;
  if (inlined > 0) report('', '$ref', 'rewritten', `${inlined} local $ref ${inlined === 1 ? 'use was' : 'uses were'} inlined`);
  return sawRef ? result : root;
}

function resolvePointer(root: SchemaNode, ref: string): unknown {
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchemaNode(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

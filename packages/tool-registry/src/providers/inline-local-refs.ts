import type { IssueReporter } from './schema-issue';
import { isSchemaNode, mapSubschemas, type SchemaNode } from './schema-walk';

/**
 * Replaces each local `$ref` ("#/...") with the schema it points to, so every provider gets a
 * self-contained schema (Gemini accepts no `$ref` at all). A recursive reference cannot be
 * inlined: it becomes "any value" for the provider and is reported.
 */
export function inlineLocalRefs(root: SchemaNode, report: IssueReporter): SchemaNode {
  let sawRef = false;
  const visit = (node: unknown, path: string, chain: readonly string[]): unknown => {
    if (!isSchemaNode(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string') {
      sawRef = true;
      const { $ref: _ref, ...siblings } = node;
      const target = ref.startsWith('#') && !chain.includes(ref) ? resolvePointer(root, ref) : undefined;
      if (isSchemaNode(target)) {
        report(path, '$ref', 'rewritten', `$ref '${ref}' inlined`);
        return visit({ ...target, ...siblings }, path, [...chain, ref]);
      }
      const why = chain.includes(ref) ? 'is recursive' : 'cannot be resolved inside the schema';
      report(path, '$ref', 'removed', `$ref '${ref}' ${why}; the provider is told any value is allowed here`);
      return visit(siblings, path, chain);
    }
    return mapSubschemas(node, path, (child, childPath) => visit(child, childPath, chain));
  };
  // The definitions are only there to be referenced: they are read through `root`, never
  // walked themselves, and once their uses are inlined they are dead weight.
  const { $defs: _defs, definitions: _definitions, ...body } = root;
  const inlined = visit(body, '', []) as SchemaNode;
  return sawRef ? inlined : root;
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

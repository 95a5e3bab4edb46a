import type { IssueReporter } from './schema-issue';
import { childPath, isSchemaNode, typesOf, type SchemaNode } from './schema-walk';

/**
 * Gemini's `functionDeclarations[].parameters` take a subset of OpenAPI 3.0 Schema, and an
 * unknown field fails the whole request ("Unknown name ... Cannot find field"). These keywords
 * pass through unchanged; everything else is rewritten or removed below.
 */
const KEPT = new Set([
  'title',
  'description',
  'nullable',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minProperties',
  'maxProperties',
  'default',
  'example',
  'propertyOrdering',
]);
/** Handled explicitly in `adapt`. */
const HANDLED = new Set(['type', 'format', 'enum', 'const', 'properties', 'required', 'items', 'anyOf', 'oneOf']);
/** The Gemini Developer API refuses any other format ("only 'enum' and 'date-time' are supported for STRING type"). */
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

const DROP = Symbol('drop');
type Place = 'root' | 'property' | 'items' | 'anyOf';

/**
 * The Gemini form of a parameters schema, or undefined when the tool takes no parameters
 * (Gemini rejects an OBJECT with no properties, so `parameters` is left out).
 */
export function adaptForGemini(root: SchemaNode, report: IssueReporter): SchemaNode | undefined {
  const out = adapt(root, '', 'root', report);
  return out === DROP ? undefined : out;
}

function adapt(node: SchemaNode, path: string, place: Place, report: IssueReporter): SchemaNode | typeof DROP {
  const types = typesOf(node);
  const nonNull = types.filter((t) => t !== 'null');
  const nullable = node.nullable === true || types.includes('null');

  if (types.length > 0 && nonNull.length === 0) {
    report(path, 'type', 'removed', `type "null" alone cannot be expressed for Gemini; the parameter is not offered to Gemini`);
    return DROP;
  }
  if (nonNull.length > 1) {
    report(path, 'type', 'rewritten', `type list ${JSON.stringify(types)} became anyOf (Gemini takes one type per schema)`);
    const { type: _t, description, title, ...rest } = node;
    const branches = nonNull.map((t, i) => adapt({ ...rest, type: t }, childPath(path, 'anyOf', i), 'anyOf', report)).filter((b): b is SchemaNode => b !== DROP);
    if (branches.length === 0) return DROP;
    return { ...(title !== undefined ? { title } : {}), ...(description !== undefined ? { description } : {}), ...(nullable ? { nullable } : {}), anyOf: branches };
  }
  if (types.length > 1) report(path, 'type', 'rewritten', `type ${JSON.stringify(types)} became "${nonNull[0]}" with nullable: true`);

  const out: SchemaNode = {};
  const notes: string[] = [];
  let type = nonNull[0];

  let enumValues: unknown[] | undefined = Array.isArray(node.enum) ? [...(node.enum as unknown[])] : undefined;
  if ('const' in node) {
    report(path, 'const', 'rewritten', 'const became a one-value enum');
    enumValues = [node.const];
  }
  if (enumValues) {
    if (enumValues.every((v) => typeof v === 'string')) {
      out.enum = enumValues;
      type ??= 'string';
    } else {
      report(path, 'enum', 'rewritten', 'Gemini allows enum only on strings; the allowed values were moved into the description');
      notes.push(`Allowed values: ${enumValues.map((v) => JSON.stringify(v)).join(', ')}.`);
    }
  }

  if (typeof node.format === 'string') {
    if (type && FORMATS[type]?.includes(node.format)) out.format = node.format;
    else {
      report(path, 'format', 'removed', `format '${node.format}' is not accepted by Gemini${type ? ` for ${type}` : ''}; it is noted in the description instead`);
      notes.push(`Format: ${node.format}.`);
    }
  }

  const anyOf = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (Array.isArray(node.oneOf)) {
    if (Array.isArray(node.anyOf)) report(path, 'oneOf', 'removed', 'anyOf and oneOf together: only anyOf is sent to Gemini');
    else report(path, 'oneOf', 'rewritten', 'oneOf became anyOf (Gemini has no oneOf; the engine still enforces exactly one)');
  }
  if (anyOf) {
    const key = Array.isArray(node.anyOf) ? 'anyOf' : 'oneOf';
    const branches = anyOf.map((b, i) => (isSchemaNode(b) ? adapt(b, childPath(path, key, i), 'anyOf', report) : DROP)).filter((b): b is SchemaNode => b !== DROP);
    if (branches.length > 0) out.anyOf = branches;
    else if (!type) return drop(path, report, 'none of its anyOf branches can be expressed for Gemini');
  }

  if (isSchemaNode(node.properties)) {
    const properties: SchemaNode = {};
    for (const [name, child] of Object.entries(node.properties)) {
      const adapted = isSchemaNode(child) ? adapt(child, childPath(path, 'properties', name), 'property', report) : DROP;
      if (adapted !== DROP) properties[name] = adapted;
    }
    type ??= 'object';
    if (Object.keys(properties).length > 0) {
      out.properties = properties;
      if (Array.isArray(node.required)) {
        const required = node.required.filter((r): r is string => typeof r === 'string' && r in properties);
        if (required.length > 0) out.required = required;
      }
    }
  }

  if (type === 'object' && out.properties === undefined) {
    if (place === 'root') return DROP;
    return drop(path, report, 'an object with no declared properties cannot be expressed for Gemini');
  }

  if (type === 'array') {
    if (isSchemaNode(node.items)) {
      const items = adapt(node.items, childPath(path, 'items'), 'items', report);
      if (items === DROP) return drop(path, report, 'its items cannot be expressed for Gemini');
      out.items = items;
    } else {
      report(path, 'items', 'rewritten', 'Gemini requires items on an array; items: {type: "string"} was assumed');
      out.items = { type: 'string' };
    }
  }

  if (!type && out.anyOf === undefined) {
    if (place === 'items') {
      report(path, 'type', 'rewritten', 'Gemini needs a type; "string" was assumed');
      type = 'string';
    } else {
      return drop(path, report, 'a schema without a type cannot be expressed for Gemini');
    }
  }

  for (const [key, value] of Object.entries(node)) {
    if (HANDLED.has(key)) continue;
    if (KEPT.has(key)) out[key] = value;
    else report(path, key, 'removed', `'${key}' is not accepted by Gemini`);
  }
  if (type) out.type = type;
  if (nullable) out.nullable = true;
  if (notes.length > 0) {
    const base = typeof out.description === 'string' && out.description ? `${out.description} ` : '';
    out.description = `${base}${notes.join(' ')}`;
  }
  return order(out);
}

function drop(path: string, report: IssueReporter, why: string): typeof DROP {
  report(path, 'type', 'removed', `${why}; the parameter is not offered to Gemini`);
  return DROP;
}

/** type first, then the rest in a fixed order, so the payload (and its tokens) is stable. */
function order(node: SchemaNode): SchemaNode {
  const { type, ...rest } = node;
  return type === undefined ? rest : { type, ...rest };
}

import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchemaObject } from './json-schema';

export type ParameterCheck = { readonly ok: true } | { readonly ok: false; readonly problems: readonly string[] };

export interface CompiledParameters {
  check(params: unknown): ParameterCheck;
}

/** At most this many problems are listed: the model fixes the first ones and tries again. */
const MAX_PROBLEMS = 8;

/**
 * One Ajv instance for all tool schemas (a new instance per schema costs ~13 ms, STACK.md).
 * Each schema is compiled once, at registration, so a broken schema is refused there instead of
 * failing the first call.
 */
export class SchemaValidator {
  private readonly ajv: Ajv;

  constructor() {
    // strict off: manifests carry documentation keywords (examples, x-...) Ajv does not know.
    // logger off: unknown formats are reported by the provider lint, not printed to stdout.
    this.ajv = new Ajv({ allErrors: true, strict: false, logger: false });
    addFormats(this.ajv);
  }

  /** Throws Ajv's own message when the schema itself is invalid. */
  compile(schema: JsonSchemaObject): CompiledParameters {
    const compilable = forCompilation(schema);
    const validate = this.ajv.compile(compilable) as ValidateFunction;
    return {
      check: (params) => {
        if (validate(params)) return { ok: true };
        return { ok: false, problems: describeErrors(validate.errors ?? [], params) };
      },
    };
  }

  /** Frees Ajv's cache entry; compiled checkers already handed out keep working. */
  release(schema: JsonSchemaObject): void {
    const key = compiledCopies.get(schema);
    if (key) this.ajv.removeSchema(key);
  }
}

const compiledCopies = new WeakMap<JsonSchemaObject, object>();

/**
 * `$schema` (a 2020-12 URI would make draft-07 Ajv throw), `$id` (two tools, or a replaced tool,
 * with the same id would collide in Ajv's registry) and `$async` (needs a different call shape)
 * are dropped at the root; validation is otherwise unchanged.
 */
function forCompilation(schema: JsonSchemaObject): object {
  const { $schema: _s, $id: _i, $async: _a, ...rest } = schema;
  compiledCopies.set(schema, rest);
  return rest;
}

function describeErrors(errors: readonly ErrorObject[], data: unknown): string[] {
  const problems: string[] = [];
  for (const error of errors) {
    // anyOf/oneOf report every failed branch, then a summary; the summary alone reads better.
    if (error.schemaPath.includes('/anyOf/') || error.schemaPath.includes('/oneOf/')) continue;
    const text = describeError(error, data);
    if (!problems.includes(text)) problems.push(text);
    if (problems.length === MAX_PROBLEMS) break;
  }
  if (problems.length === 0 && errors[0]) problems.push(describeError(errors[0], data));
  return problems;
}

function describeError(error: ErrorObject, data: unknown): string {
  const at = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `parameter '${join(at, String(params.missingProperty))}' is required`;
    case 'additionalProperties':
      return `parameter '${join(at, String(params.additionalProperty))}' is not allowed (unknown parameter)`;
    case 'type':
      return `${subject(at)} must be ${article(String(params.type))}, got ${kindOf(valueAt(data, error.instancePath))}`;
    case 'enum':
      return `${subject(at)} must be one of: ${(params.allowedValues as unknown[]).map(show).join(', ')} (got ${show(valueAt(data, error.instancePath))})`;
    case 'const':
      return `${subject(at)} must be ${show(params.allowedValue)}`;
    case 'format':
      return `${subject(at)} must be a valid ${String(params.format)}`;
    case 'anyOf':
    case 'oneOf':
      return `${subject(at)} does not match any of the allowed forms`;
    default:
      return `${subject(at)} ${error.message ?? `fails '${error.keyword}'`}`;
  }
}

function pathOf(instancePath: string): string {
  if (!instancePath) return '';
  return instancePath
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : join(acc, part)), '');
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

function subject(path: string): string {
  return path ? `parameter '${path}'` : 'the arguments';
}

function article(type: string): string {
  const types = type.split(',');
  const one = (t: string) => (t === 'object' || t === 'array' || t === 'integer' ? `an ${t}` : `a ${t}`);
  return types.map(one).join(' or ');
}

function valueAt(data: unknown, instancePath: string): unknown {
  let current: unknown = data;
  for (const raw of instancePath.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'string') return `the string ${show(value)}`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

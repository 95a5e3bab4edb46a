import type { JsonSchemaObject } from '../json-schema';
import { adaptForGemini } from './gemini-schema';
import { inlineLocalRefs } from './inline-local-refs';
import { PROVIDER_NAMES, type ProviderName } from './provider-name';
import type { IssueReporter, SchemaIssue } from './schema-issue';
import { isSchemaNode, mapSubschemas, typesOf, type SchemaNode } from './schema-walk';

export interface AdaptedSchema {
  /** What the provider is sent; undefined (Gemini only) means "send no parameters". */
  readonly schema: JsonSchemaObject | undefined;
  readonly issues: readonly SchemaIssue[];
}

export interface ProviderSchemas {
  readonly schemas: Readonly<Record<ProviderName, JsonSchemaObject | undefined>>;
  /** Every provider's issues, in PROVIDER_NAMES order. */
  readonly issues: readonly SchemaIssue[];
}

/**
 * adaptSchema for every provider: what the registry does at registration, and what a caller can
 * run first to learn whether a schema will be accepted. Throws SchemaTooLargeError for a schema
 * whose inlined form is past the caps (schema-too-large-error.ts).
 */
export function adaptForProviders(parameters: JsonSchemaObject): ProviderSchemas {
  const schemas = {} as Record<ProviderName, JsonSchemaObject | undefined>;
  const issues: SchemaIssue[] = [];
  for (const provider of PROVIDER_NAMES) {
    const adapted = adaptSchema(provider, parameters);
    schemas[provider] = adapted.schema;
    // A loop, not push(...): a spread of a very long list overflows the stack.
    for (const issue of adapted.issues) issues.push(issue);
  }
  return { schemas, issues };
}

/**
 * OpenAI and Anthropic refuse these at the root of a tool's parameters (inside properties they
 * are fine); Gemini needs a plain OBJECT there. The root's own properties still describe the call.
 */
const ROOT_REJECTED: Readonly<Record<ProviderName, readonly string[]>> = {
  openai: ['oneOf', 'anyOf', 'allOf', 'not', 'enum'],
  anthropic: ['oneOf', 'anyOf', 'allOf'],
  gemini: ['oneOf', 'anyOf', 'allOf', 'not', 'enum', 'const'],
};
const PROVIDER_LABEL: Readonly<Record<ProviderName, string>> = { openai: 'OpenAI', anthropic: 'Anthropic', gemini: 'Gemini' };

/**
 * The parameters schema as `provider` accepts it, and what had to change. Pure; the registry
 * runs it once per tool and provider at registration.
 */
export function adaptSchema(provider: ProviderName, parameters: JsonSchemaObject): AdaptedSchema {
  const issues: SchemaIssue[] = [];
  const report: IssueReporter = (path, keyword, action, message) => issues.push({ provider, path, keyword, action, message });
  const root = withoutRootKeywords(provider, inlineLocalRefs(parameters as SchemaNode, report), report);
  const schema = provider === 'gemini' ? adaptForGemini(root, report) : provider === 'openai' ? addMissingItems(root, '', report) : root;
  return { schema: schema as JsonSchemaObject | undefined, issues };
}

function withoutRootKeywords(provider: ProviderName, root: SchemaNode, report: IssueReporter): SchemaNode {
  const out: SchemaNode = { ...root };
  for (const keyword of ROOT_REJECTED[provider]) {
    if (keyword in out) {
      delete out[keyword];
      report('', keyword, 'removed', `${PROVIDER_LABEL[provider]} rejects '${keyword}' at the root of tool parameters`);
    }
  }
  return out;
}

/** OpenAI fails the request with "array schema missing items"; `items: {}` means the same thing. */
function addMissingItems(node: SchemaNode, path: string, report: IssueReporter): SchemaNode {
  const out = mapSubschemas(node, path, (child, p) => (isSchemaNode(child) ? addMissingItems(child, p, report) : child));
  if (typesOf(out).includes('array') && out.items === undefined) {
    report(path, 'items', 'rewritten', 'OpenAI rejects an array without items; items: {} (any item) was added');
    out.items = {};
  }
  return out;
}

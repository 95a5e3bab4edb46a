import type { ProviderName } from './provider-name';

/**
 * Something in a tool's schema a provider would reject, and what was done about it. Found at
 * registration; the provider is then sent the adapted schema, so one tool never fails a request.
 * `removed`: the keyword (or, for Gemini, a whole parameter) is not sent to that provider.
 * `rewritten`: replaced by an equivalent or looser form the provider accepts.
 * Either way the engine still validates arguments against the full original schema.
 */
export interface SchemaIssue {
  readonly provider: ProviderName;
  /** Where in the parameters schema, e.g. `properties.headers`; empty for the root. */
  readonly path: string;
  readonly keyword: string;
  readonly action: 'removed' | 'rewritten';
  readonly message: string;
}

export type IssueReporter = (path: string, keyword: string, action: SchemaIssue['action'], message: string) => void;

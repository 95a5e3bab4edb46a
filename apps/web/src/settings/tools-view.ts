/**
 * Pure helpers of the Tools screen: tools grouped by the file they come from (the origin's JS
 * tool group settings: "google_drive.js (3 tools)"), the text filter, counts and labels.
 */
import type { ToolGroupView, ToolSourceView } from '@oneclaw/api-contract';

export function sourceKindLabel(kind: string): string {
  switch (kind) {
    case 'built-in':
      return 'Built-in';
    case 'js-built-in':
      return 'Shipped JS';
    case 'js-user':
      return 'User JS';
    default:
      return kind;
  }
}

export interface SourceCounts {
  readonly tools: number;
  readonly enabled: number;
  readonly errors: number;
  readonly warnings: number;
}

export function countsOf(source: ToolSourceView): SourceCounts {
  return {
    tools: source.tools.length,
    enabled: source.tools.filter((t) => t.enabled).length,
    errors: source.problems.filter((p) => p.severity === 'error').length,
    warnings: source.problems.filter((p) => p.severity !== 'error').length,
  };
}

/** "3 tools", "1 tool", "4 tools, 1 disabled". */
export function countLabel(counts: Pick<SourceCounts, 'tools' | 'enabled'>): string {
  const tools = `${counts.tools} tool${counts.tools === 1 ? '' : 's'}`;
  const disabled = counts.tools - counts.enabled;
  return disabled > 0 ? `${tools}, ${disabled} disabled` : tools;
}

/**
 * The groups whose switch belongs on a file's card: a JS group file names its one group; the
 * TypeScript built-ins come as one "file" holding several groups, named by their tools.
 */
export function groupsOfSource(source: ToolSourceView): string[] {
  if (source.group) return [source.group];
  const names: string[] = [];
  for (const tool of source.tools) if (tool.group && !names.includes(tool.group)) names.push(tool.group);
  return names;
}

/**
 * The sources matching `query` (case-insensitive, words in any order): a source whose file,
 * group, kind or description matches is kept whole; otherwise only its matching tools are, and
 * a source with none is dropped. Problems always stay with the tools shown, so an error is never
 * filtered away from its file.
 */
export function filterSources(sources: readonly ToolSourceView[], query: string, groups: readonly ToolGroupView[] = []): ToolSourceView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...sources];
  const matches = (...texts: (string | undefined)[]) => {
    const haystack = texts.filter(Boolean).join(' ').toLowerCase();
    return words.every((w) => haystack.includes(w));
  };
  const result: ToolSourceView[] = [];
  for (const source of sources) {
    const groupTexts = groupsOfSource(source).flatMap((name) => {
      const group = groups.find((g) => g.name === name);
      return [name, group?.displayName, group?.description];
    });
    if (matches(source.fileName, source.group, source.kind, sourceKindLabel(source.kind), source.description, ...groupTexts)) {
      result.push(source);
      continue;
    }
    const tools = source.tools.filter((t) => matches(t.name, t.description, t.group));
    const problems = source.problems.filter((p) => matches(p.message, p.tool));
    if (tools.length > 0 || problems.length > 0) result.push({ ...source, tools, problems });
  }
  return result;
}

export interface Totals {
  readonly files: number;
  readonly tools: number;
  readonly enabled: number;
  /** Files with at least one load error. */
  readonly filesWithErrors: readonly string[];
}

export function totalsOf(sources: readonly ToolSourceView[]): Totals {
  return {
    files: sources.length,
    tools: sources.reduce((n, s) => n + s.tools.length, 0),
    enabled: sources.reduce((n, s) => n + s.tools.filter((t) => t.enabled).length, 0),
    filesWithErrors: sources.filter((s) => s.problems.some((p) => p.severity === 'error')).map((s) => s.fileName),
  };
}

/** Every tool name, in catalogue order, for the agent editor's allow-list. */
export function allToolNames(sources: readonly ToolSourceView[]): string[] {
  const names: string[] = [];
  for (const source of sources) for (const tool of source.tools) if (!names.includes(tool.name)) names.push(tool.name);
  return names;
}

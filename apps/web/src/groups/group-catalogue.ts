import type { ToolGroupView, ToolSourceView } from '@oneclaw/api-contract';

/**
 * The groups browser's pure parts: text search over groups, and each tool's description looked
 * up from GET /api/tools (which lists tools by source file, not by group).
 */

export interface ToolInfo {
  readonly name: string;
  readonly description: string;
  readonly enabled: boolean;
  readonly fileName: string;
}

/** Every tool by name, from the per-file listing. */
export function toolsByName(sources: readonly ToolSourceView[]): ReadonlyMap<string, ToolInfo> {
  const map = new Map<string, ToolInfo>();
  for (const source of sources) {
    for (const tool of source.tools) {
      if (!map.has(tool.name)) map.set(tool.name, { name: tool.name, description: tool.description, enabled: tool.enabled !== false, fileName: source.fileName });
    }
  }
  return map;
}

/**
 * The groups matching a search: every word of the query must appear (case-insensitive) in the
 * group's name, display name, description, source file or one of its tools' names. An empty
 * query matches everything; the catalogue's order is kept.
 */
export function filterGroups(groups: readonly ToolGroupView[], query: string, tools?: ReadonlyMap<string, ToolInfo>): ToolGroupView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...groups];
  return groups.filter((group) => {
    const haystack = [
      group.name,
      group.displayName,
      group.description,
      group.source.fileName ?? '',
      ...group.toolNames,
      ...group.toolNames.map((t) => tools?.get(t)?.description ?? ''),
    ]
      .join('\n')
      .toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** Where a group comes from, in words: "Built-in (pdf-tools.ts)", "Shipped JavaScript (google_gmail.js)". */
export function sourceLabel(source: ToolGroupView['source']): string {
  const kinds: Record<string, string> = { 'built-in': 'Built-in', 'js-built-in': 'Shipped JavaScript', 'js-user': 'Your JavaScript' };
  const kind = kinds[source.kind] ?? source.kind;
  return source.fileName ? `${kind} (${source.fileName})` : kind;
}

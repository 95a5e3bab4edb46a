import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ToolSourceView, ToolView } from '@oneclaw/api-contract';
import { ConfigServices } from '../../config/config-services';
import { ToolRuntime } from '../../tools/tool-runtime';
import { ListToolsQuery } from './list-tools.query';

const BUILT_IN_FILE = 'built-in';

@QueryHandler(ListToolsQuery)
export class ListToolsHandler implements IQueryHandler<ListToolsQuery> {
  constructor(
    private readonly tools: ToolRuntime,
    private readonly config: ConfigServices,
  ) {}

  async execute(): Promise<readonly ToolSourceView[]> {
    // The enabled flags come from the registry, which follows the config stream only when this
    // replica reads it: catch up first, or a tool disabled through another replica stays shown
    // as enabled here (found by the replica e2e test, PG-32). A store that cannot be read this
    // moment leaves the cached flags: the settings screen must not fail for that.
    await this.config.repository.load().catch(() => undefined);
    const registry = this.tools.registry;
    const viewOf = (name: string): ToolView => {
      const group = registry.groupOf(name);
      return { name, description: registry.definition(name)?.description ?? '', ...(group !== undefined ? { group } : {}), enabled: registry.isToolEnabled(name) };
    };
    const builtIns = registry.toolNames().filter((name) => registry.get(name)?.source.kind === 'built-in');
    const sources: ToolSourceView[] = [{ fileName: BUILT_IN_FILE, kind: 'built-in', tools: builtIns.map(viewOf), problems: [] }];
    for (const file of this.tools.catalogue.files()) {
      sources.push({
        fileName: file.fileName,
        kind: file.kind,
        ...(file.group ? { group: file.group.name, description: registry.group(file.group.name)?.definition.description ?? file.group.description } : {}),
        tools: file.toolNames.filter((n) => registry.has(n)).map(viewOf),
        problems: file.problems.map((p) => ({ severity: p.severity, ...(p.tool ? { tool: p.tool } : {}), message: p.message })),
      });
    }
    return sources;
  }
}

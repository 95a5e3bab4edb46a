import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ToolRuntime } from '../../tools/tool-runtime';
import { ListToolGroupsQuery, type ToolGroupView } from './list-tool-groups.query';

@QueryHandler(ListToolGroupsQuery)
export class ListToolGroupsHandler implements IQueryHandler<ListToolGroupsQuery> {
  constructor(private readonly tools: ToolRuntime) {}

  async execute(): Promise<readonly ToolGroupView[]> {
    const registry = this.tools.registry;
    return registry.groupNames().map((name) => {
      const group = registry.group(name);
      return {
        name,
        displayName: group?.definition.displayName ?? name,
        description: group?.definition.description ?? '',
        toolNames: registry.groupToolNames(name),
        enabled: registry.isGroupEnabled(name),
        source: { kind: group?.origin.kind ?? 'built-in', ...(group?.origin.fileName ? { fileName: group.origin.fileName } : {}) },
      };
    });
  }
}

import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ActiveTools } from '@oneclaw/api-contract';
import { ToolRuntime } from '../../tools/tool-runtime';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { GetActiveToolsQuery } from './get-active-tools.query';

@QueryHandler(GetActiveToolsQuery)
export class GetActiveToolsHandler implements IQueryHandler<GetActiveToolsQuery> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
    private readonly tools: ToolRuntime,
  ) {}

  async execute(query: GetActiveToolsQuery): Promise<ActiveTools> {
    const view = this.views.of(await this.sessions.get(query.sessionId));
    const registry = this.tools.registry;
    return {
      sessionId: view.sessionId,
      revision: view.revision,
      loadedGroups: view.loadedGroups,
      tools: registry.definitions(view.activeTools).map((d) => {
        const group = registry.groupOf(d.name);
        return { name: d.name, description: d.description, ...(group !== undefined ? { group } : {}) };
      }),
    };
  }
}

import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { agentView } from './agent-view';
import { ListAgentsQuery } from './list-agents.query';

@QueryHandler(ListAgentsQuery)
export class ListAgentsHandler implements IQueryHandler<ListAgentsQuery> {
  constructor(private readonly config: ConfigServices) {}

  async execute() {
    return { agents: (await this.config.agentService.list()).map(agentView) };
  }
}

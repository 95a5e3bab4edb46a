import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import type { AgentView } from '@oneclaw/api-contract';
import { agentView } from '../queries/agent-view';
import { requestOrigin } from './request-origin';
import { UpdateAgentCommand } from './update-agent.command';

@CommandHandler(UpdateAgentCommand)
export class UpdateAgentHandler implements ICommandHandler<UpdateAgentCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: UpdateAgentCommand): Promise<AgentView> {
    const { agent } = await this.config.agentService.update(command.agentId, command.changes, requestOrigin(`agent-updated:${command.agentId}`, command.requestId));
    return agentView(agent);
  }
}

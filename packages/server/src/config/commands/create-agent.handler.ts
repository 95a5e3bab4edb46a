import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import type { AgentView } from '@oneclaw/api-contract';
import { agentView } from '../queries/agent-view';
import { CreateAgentCommand } from './create-agent.command';
import { recordedEarlier, requestOrigin } from './request-origin';

@CommandHandler(CreateAgentCommand)
export class CreateAgentHandler implements ICommandHandler<CreateAgentCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: CreateAgentCommand): Promise<AgentView> {
    const origin = requestOrigin('agent-created', command.requestId);
    // The agent id is random: a retry whose first attempt landed answers with that agent instead of adding a second one.
    const earlier = await recordedEarlier(this.config.repository, origin);
    if (earlier) return agentView(await this.config.agents.find((earlier.data as { readonly agentId: string }).agentId));
    return agentView(await this.config.agentService.create(command.agent, origin));
  }
}

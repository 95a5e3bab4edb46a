import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { DeleteAgentCommand } from './delete-agent.command';
import { recordedEarlier, requestOrigin } from './request-origin';

@CommandHandler(DeleteAgentCommand)
export class DeleteAgentHandler implements ICommandHandler<DeleteAgentCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: DeleteAgentCommand): Promise<void> {
    const origin = requestOrigin(`agent-deleted:${command.agentId}`, command.requestId);
    // A retry of a delete that landed succeeds again rather than finding no agent.
    if (await recordedEarlier(this.config.repository, origin)) return;
    await this.config.agentService.delete(command.agentId, origin);
  }
}

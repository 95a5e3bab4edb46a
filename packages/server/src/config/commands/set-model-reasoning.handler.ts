import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ModelView } from '@oneclaw/api-contract';
import { ConfigServices } from '../config-services';
import { requestOrigin } from './request-origin';
import { SetModelReasoningCommand } from './set-model-reasoning.command';

@CommandHandler(SetModelReasoningCommand)
export class SetModelReasoningHandler implements ICommandHandler<SetModelReasoningCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: SetModelReasoningCommand): Promise<readonly ModelView[]> {
    const origin = requestOrigin(`model-reasoning:${command.providerId}:${command.modelId}:${String(command.effort)}`, command.requestId);
    await this.config.providers.setModelReasoning(command.providerId, command.modelId, command.effort, origin);
    return this.config.providers.models(command.providerId);
  }
}

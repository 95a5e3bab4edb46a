import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { requestOrigin } from './request-origin';
import { SetDefaultModelCommand } from './set-default-model.command';

@CommandHandler(SetDefaultModelCommand)
export class SetDefaultModelHandler implements ICommandHandler<SetDefaultModelCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: SetDefaultModelCommand): Promise<void> {
    await this.config.providers.setDefaultModel(command.providerId, command.modelId, requestOrigin(`default-model:${command.providerId}:${command.modelId}`, command.requestId));
  }
}

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { DeleteProviderModelCommand } from './delete-provider-model.command';
import { recordedEarlier, requestOrigin } from './request-origin';

@CommandHandler(DeleteProviderModelCommand)
export class DeleteProviderModelHandler implements ICommandHandler<DeleteProviderModelCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: DeleteProviderModelCommand): Promise<void> {
    const origin = requestOrigin(`model-deleted:${command.providerId}:${command.modelId}`, command.requestId);
    if (await recordedEarlier(this.config.repository, origin)) return;
    await this.config.providers.deleteModel(command.providerId, command.modelId, origin);
  }
}

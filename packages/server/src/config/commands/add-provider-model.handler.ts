import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import type { ModelView } from '@oneclaw/api-contract';
import { AddProviderModelCommand } from './add-provider-model.command';
import { requestOrigin } from './request-origin';

@CommandHandler(AddProviderModelCommand)
export class AddProviderModelHandler implements ICommandHandler<AddProviderModelCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: AddProviderModelCommand): Promise<readonly ModelView[]> {
    const origin = requestOrigin(`model-added:${command.providerId}:${command.modelId}`, command.requestId);
    await this.config.providers.addModel(command.providerId, command.modelId, command.displayName, origin);
    return this.config.providers.models(command.providerId);
  }
}

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { RemoveProviderApiKeyCommand } from './remove-provider-api-key.command';

@CommandHandler(RemoveProviderApiKeyCommand)
export class RemoveProviderApiKeyHandler implements ICommandHandler<RemoveProviderApiKeyCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: RemoveProviderApiKeyCommand): Promise<void> {
    await this.config.providers.removeApiKey(command.providerId, command.requestId ? { commandId: `api-key-removed:${command.providerId}:${command.requestId}` } : {});
  }
}

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { SetProviderApiKeyCommand } from './set-provider-api-key.command';

@CommandHandler(SetProviderApiKeyCommand)
export class SetProviderApiKeyHandler implements ICommandHandler<SetProviderApiKeyCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: SetProviderApiKeyCommand): Promise<void> {
    await this.config.providers.setApiKey(command.providerId, command.apiKey, command.requestId ? { commandId: `api-key:${command.providerId}:${command.requestId}` } : {});
  }
}

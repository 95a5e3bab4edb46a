import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { RemoveProviderApiKeyCommand } from './remove-provider-api-key.command';
import { recordedEarlier, requestOrigin } from './request-origin';

@CommandHandler(RemoveProviderApiKeyCommand)
export class RemoveProviderApiKeyHandler implements ICommandHandler<RemoveProviderApiKeyCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: RemoveProviderApiKeyCommand): Promise<void> {
    const origin = requestOrigin(`api-key-removed:${command.providerId}`, command.requestId);
    // A retry of a removal that landed must not remove a key set since.
    if (await recordedEarlier(this.config.repository, origin)) return;
    await this.config.providers.removeApiKey(command.providerId, origin);
  }
}

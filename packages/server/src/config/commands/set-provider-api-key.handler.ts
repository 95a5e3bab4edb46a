import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { replacedSince, requestOrigin } from './request-origin';
import { SetProviderApiKeyCommand } from './set-provider-api-key.command';

@CommandHandler(SetProviderApiKeyCommand)
export class SetProviderApiKeyHandler implements ICommandHandler<SetProviderApiKeyCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: SetProviderApiKeyCommand): Promise<void> {
    const { providerId } = command;
    const origin = requestOrigin(`api-key:${providerId}`, command.requestId);
    // A late retry must not put back a key replaced since (PUT old, PUT new, PUT old again).
    if (await replacedSince(this.config.repository, origin, (state) => state.providers.get(providerId)?.apiKeyEventId)) return;
    await this.config.providers.setApiKey(providerId, command.apiKey, origin);
  }
}

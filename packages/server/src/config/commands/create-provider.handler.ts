import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import type { ProviderView as ProviderApiView } from '@oneclaw/api-contract';
import { currentProviderApiView } from '../queries/provider-api-view';
import { CreateProviderCommand } from './create-provider.command';
import { recordedEarlier, requestOrigin } from './request-origin';

@CommandHandler(CreateProviderCommand)
export class CreateProviderHandler implements ICommandHandler<CreateProviderCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: CreateProviderCommand): Promise<ProviderApiView> {
    const providers = this.config.providers;
    const origin = requestOrigin('provider-created', command.requestId);
    // The provider id is random: a retry whose first attempt landed answers with that provider instead of adding a second one.
    const earlier = await recordedEarlier(this.config.repository, origin);
    const providerId = earlier ? (earlier.data as { readonly providerId: string }).providerId : (await providers.create(command.provider, origin)).providerId;
    if (command.apiKey !== undefined) {
      const keyOrigin = requestOrigin(`provider-created-key:${providerId}`, command.requestId);
      // Only if that attempt did not store it: a key replaced since must not be put back by a late retry.
      if (!(await recordedEarlier(this.config.repository, keyOrigin))) await providers.setApiKey(providerId, command.apiKey, keyOrigin);
    }
    return currentProviderApiView(providers, providerId);
  }
}

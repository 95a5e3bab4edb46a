import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import type { ProviderView as ProviderApiView } from '@oneclaw/api-contract';
import { providerApiView } from '../queries/provider-api-view';
import { requestOrigin } from './request-origin';
import { UpdateProviderCommand } from './update-provider.command';

@CommandHandler(UpdateProviderCommand)
export class UpdateProviderHandler implements ICommandHandler<UpdateProviderCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: UpdateProviderCommand): Promise<ProviderApiView> {
    const { provider } = await this.config.providers.update(command.providerId, command.changes, requestOrigin(`provider-updated:${command.providerId}`, command.requestId));
    return providerApiView(this.config.providers, provider);
  }
}

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { DeleteProviderCommand } from './delete-provider.command';
import { recordedEarlier, requestOrigin } from './request-origin';

@CommandHandler(DeleteProviderCommand)
export class DeleteProviderHandler implements ICommandHandler<DeleteProviderCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: DeleteProviderCommand): Promise<void> {
    const origin = requestOrigin(`provider-deleted:${command.providerId}`, command.requestId);
    // A retry of a delete that landed succeeds again rather than finding nothing to delete.
    if (await recordedEarlier(this.config.repository, origin)) return;
    await this.config.providers.delete(command.providerId, origin);
  }
}

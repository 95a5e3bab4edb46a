import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { DeleteEnvVarCommand } from './delete-env-var.command';
import { recordedEarlier, requestOrigin } from './request-origin';

@CommandHandler(DeleteEnvVarCommand)
export class DeleteEnvVarHandler implements ICommandHandler<DeleteEnvVarCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: DeleteEnvVarCommand): Promise<void> {
    const origin = requestOrigin(`env-var-deleted:${command.name}`, command.requestId);
    // A retry of a delete that landed succeeds again, rather than finding nothing to delete or deleting a value set since.
    if (await recordedEarlier(this.config.repository, origin)) return;
    await this.config.envVars.delete(command.name, origin);
  }
}

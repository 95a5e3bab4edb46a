import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { DeleteEnvVarCommand } from './delete-env-var.command';

@CommandHandler(DeleteEnvVarCommand)
export class DeleteEnvVarHandler implements ICommandHandler<DeleteEnvVarCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: DeleteEnvVarCommand): Promise<void> {
    await this.config.envVars.delete(command.name, command.requestId ? { commandId: `env-var-deleted:${command.name}:${command.requestId}` } : {});
  }
}

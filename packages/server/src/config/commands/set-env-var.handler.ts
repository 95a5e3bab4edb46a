import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { SetEnvVarCommand } from './set-env-var.command';

@CommandHandler(SetEnvVarCommand)
export class SetEnvVarHandler implements ICommandHandler<SetEnvVarCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: SetEnvVarCommand): Promise<void> {
    await this.config.envVars.set(command.name, command.value, command.requestId ? { commandId: `env-var:${command.name}:${command.requestId}` } : {});
  }
}

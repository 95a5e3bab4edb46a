import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { replacedSince, requestOrigin } from './request-origin';
import { SetEnvVarCommand } from './set-env-var.command';

@CommandHandler(SetEnvVarCommand)
export class SetEnvVarHandler implements ICommandHandler<SetEnvVarCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: SetEnvVarCommand): Promise<void> {
    const { name } = command;
    const origin = requestOrigin(`env-var:${name}`, command.requestId);
    // A late retry must not put back a value replaced since (PUT old, PUT new, PUT old again).
    if (await replacedSince(this.config.repository, origin, (state) => state.envVars.get(name))) return;
    await this.config.envVars.set(name, command.value, origin);
  }
}

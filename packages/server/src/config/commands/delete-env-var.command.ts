import { Command } from '@nestjs/cqrs';

/** Deletes a tool environment variable set through the configuration. */
export class DeleteEnvVarCommand extends Command<void> {
  constructor(
    readonly name: string,
    readonly requestId?: string,
  ) {
    super();
  }
}

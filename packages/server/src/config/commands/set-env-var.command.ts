import { Command } from '@nestjs/cqrs';

/** Sets a tool environment variable (`_env.NAME`); the value goes to the secret store, never into events. */
export class SetEnvVarCommand extends Command<void> {
  constructor(
    readonly name: string,
    readonly value: string,
    readonly requestId?: string,
  ) {
    super();
  }
}

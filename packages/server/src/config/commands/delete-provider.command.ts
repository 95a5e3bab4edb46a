import { Command } from '@nestjs/cqrs';

/** Deletes a configured provider with its model list and its stored key; the environment provider cannot be deleted. */
export class DeleteProviderCommand extends Command<void> {
  constructor(
    readonly providerId: string,
    readonly requestId?: string,
  ) {
    super();
  }
}

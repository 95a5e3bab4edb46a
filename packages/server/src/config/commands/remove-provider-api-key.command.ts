import { Command } from '@nestjs/cqrs';

/** Forgets a configured provider's API key on this server. */
export class RemoveProviderApiKeyCommand extends Command<void> {
  constructor(
    readonly providerId: string,
    readonly requestId?: string,
  ) {
    super();
  }
}

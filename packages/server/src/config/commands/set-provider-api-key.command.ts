import { Command } from '@nestjs/cqrs';

/** Stores a configured provider's API key in the secret store; the event records only that it was set. */
export class SetProviderApiKeyCommand extends Command<void> {
  constructor(
    readonly providerId: string,
    readonly apiKey: string,
    readonly requestId?: string,
  ) {
    super();
  }
}

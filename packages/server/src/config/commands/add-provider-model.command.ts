import { Command } from '@nestjs/cqrs';
import type { ModelView } from '@oneclaw/api-contract';

/** Adds a model to a provider's list by hand (for providers whose API does not list it). */
export class AddProviderModelCommand extends Command<readonly ModelView[]> {
  constructor(
    readonly providerId: string,
    readonly modelId: string,
    readonly displayName?: string,
    readonly requestId?: string,
  ) {
    super();
  }
}

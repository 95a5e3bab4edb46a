import { Command } from '@nestjs/cqrs';
import type { ModelView } from '@oneclaw/api-contract';

/** Asks the provider's model-list API for its models and records the list (models added by hand stay). */
export class FetchProviderModelsCommand extends Command<readonly ModelView[]> {
  constructor(
    readonly providerId: string,
    readonly requestId?: string,
  ) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { ProviderKind } from '@oneclaw/core';
import type { ProviderView as ProviderApiView } from '@oneclaw/api-contract';

/** Adds a provider; a key given with it goes to the secret store (never into events), as SetProviderApiKey does. */
export class CreateProviderCommand extends Command<ProviderApiView> {
  constructor(
    readonly provider: { readonly name: string; readonly kind: ProviderKind; readonly apiBaseUrl: string },
    readonly apiKey?: string,
    readonly requestId?: string,
  ) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { ProviderView as ProviderApiView } from '@oneclaw/api-contract';

/** Changes a configured provider's name, base URL or whether it is active; the environment provider is read-only. */
export class UpdateProviderCommand extends Command<ProviderApiView> {
  constructor(
    readonly providerId: string,
    readonly changes: { readonly name?: string; readonly apiBaseUrl?: string; readonly isActive?: boolean },
    readonly requestId?: string,
  ) {
    super();
  }
}

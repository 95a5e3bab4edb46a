import { Command } from '@nestjs/cqrs';
import type { ProviderApiView } from '../queries/provider-api-view';

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

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import type { ModelView } from '@oneclaw/api-contract';
import { FetchProviderModelsCommand } from './fetch-provider-models.command';
import { recordedEarlier, requestOrigin } from './request-origin';

/** As long as the fetch_models tool may take: a provider that does not answer must not hold the request forever. */
const FETCH_TIMEOUT_MS = 30_000;

@CommandHandler(FetchProviderModelsCommand)
export class FetchProviderModelsHandler implements ICommandHandler<FetchProviderModelsCommand> {
  constructor(private readonly config: ConfigServices) {}

  async execute(command: FetchProviderModelsCommand): Promise<readonly ModelView[]> {
    const providers = this.config.providers;
    const origin = requestOrigin(`models-fetched:${command.providerId}`, command.requestId);
    // A retry after a recorded fetch answers with that list: fetching again could record a different one under the same event id.
    if (await recordedEarlier(this.config.repository, origin)) return providers.models(command.providerId);
    return providers.fetchModels(command.providerId, AbortSignal.timeout(FETCH_TIMEOUT_MS), origin);
  }
}

import { Query } from '@nestjs/cqrs';
import type { ModelRef } from '@oneclaw/core';
import type { ProviderApiView } from './provider-api-view';

/** Every provider (the environment one first) with its models and whether a key is stored, and the default model. */
export class ListProvidersQuery extends Query<{ readonly providers: readonly ProviderApiView[]; readonly defaultModel: ModelRef | null }> {}

import { Query } from '@nestjs/cqrs';
import type { ProvidersAnswer } from '@oneclaw/api-contract';

/** Every provider (the environment one first) with its models and whether a key is stored, and the default model. */
export class ListProvidersQuery extends Query<ProvidersAnswer> {}

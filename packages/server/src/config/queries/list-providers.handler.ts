import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { providerApiView } from './provider-api-view';
import { ListProvidersQuery } from './list-providers.query';

@QueryHandler(ListProvidersQuery)
export class ListProvidersHandler implements IQueryHandler<ListProvidersQuery> {
  constructor(private readonly config: ConfigServices) {}

  async execute() {
    const { providers, defaultModel } = await this.config.providers.list();
    return { providers: await Promise.all(providers.map((p) => providerApiView(this.config.providers, p))), defaultModel };
  }
}

import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ConfigServices } from '../config-services';
import { ListEnvVarsQuery } from './list-env-vars.query';

@QueryHandler(ListEnvVarsQuery)
export class ListEnvVarsHandler implements IQueryHandler<ListEnvVarsQuery> {
  constructor(private readonly config: ConfigServices) {}

  async execute() {
    return { variables: await this.config.envVars.list() };
  }
}

import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CONFIG_STREAM_ID } from '@oneclaw/core';
import { ConfigServices } from '../config-services';
import { GetConfigEventsQuery } from './get-config-events.query';

@QueryHandler(GetConfigEventsQuery)
export class GetConfigEventsHandler implements IQueryHandler<GetConfigEventsQuery> {
  constructor(private readonly config: ConfigServices) {}

  async execute(query: GetConfigEventsQuery) {
    const events = await this.config.repository.history(query.fromRevision);
    return { streamId: CONFIG_STREAM_ID, events };
  }
}

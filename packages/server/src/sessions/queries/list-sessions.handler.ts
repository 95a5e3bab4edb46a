import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { SessionIndex } from '../session-index';
import { ListSessionsQuery } from './list-sessions.query';

@QueryHandler(ListSessionsQuery)
export class ListSessionsHandler implements IQueryHandler<ListSessionsQuery> {
  constructor(private readonly index: SessionIndex) {}

  execute() {
    return this.index.list();
  }
}

import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { GetSessionQuery } from './get-session.query';

@QueryHandler(GetSessionQuery)
export class GetSessionHandler implements IQueryHandler<GetSessionQuery> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
  ) {}

  async execute(query: GetSessionQuery) {
    return this.views.of(await this.sessions.get(query.sessionId));
  }
}

import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { sessionErrors } from '@oneclaw/core';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { GetSessionQuery } from './get-session.query';

@QueryHandler(GetSessionQuery)
export class GetSessionHandler implements IQueryHandler<GetSessionQuery> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
  ) {}

  /** A deleted (archived) session answers 410 session_archived: it is gone for the user; its audit stays. */
  async execute(query: GetSessionQuery) {
    const snapshot = await this.sessions.get(query.sessionId);
    if (snapshot.state.archivedAt !== null) throw sessionErrors.archived(query.sessionId);
    return this.views.of(snapshot);
  }
}

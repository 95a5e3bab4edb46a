import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { sessionErrors } from '@oneclaw/core';
import { SessionRepository } from '../session-repository';
import { GetSessionEventsQuery } from './get-session-events.query';

@QueryHandler(GetSessionEventsQuery)
export class GetSessionEventsHandler implements IQueryHandler<GetSessionEventsQuery> {
  constructor(private readonly sessions: SessionRepository) {}

  async execute(query: GetSessionEventsQuery) {
    const events = await this.sessions.events(query.sessionId);
    if (events.length === 0) throw sessionErrors.notFound(query.sessionId);
    return { sessionId: query.sessionId, events };
  }
}

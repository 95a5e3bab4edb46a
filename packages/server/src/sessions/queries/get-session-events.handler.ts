import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { sessionErrors, type RecordedEvent } from '@oneclaw/core';
import { SessionRepository } from '../session-repository';
import { GetSessionEventsQuery } from './get-session-events.query';

/** A page of the raw stream; one event more than the page is read, to know whether another page follows. */
@QueryHandler(GetSessionEventsQuery)
export class GetSessionEventsHandler implements IQueryHandler<GetSessionEventsQuery> {
  constructor(private readonly sessions: SessionRepository) {}

  async execute({ sessionId, fromRevision, limit }: GetSessionEventsQuery) {
    const read = await this.sessions.events(sessionId, { fromRevision, maxCount: limit + 1 });
    // An empty page past the end of a session is an answer; an empty stream is no session.
    if (read.length === 0 && (fromRevision === 0 || (await this.sessions.events(sessionId, { maxCount: 1 })).length === 0)) {
      throw sessionErrors.notFound(sessionId);
    }
    const events = read.slice(0, limit);
    const nextRevision = read.length > limit ? (events.at(-1) as RecordedEvent).revision + 1 : null;
    return { sessionId, events, nextRevision };
  }
}

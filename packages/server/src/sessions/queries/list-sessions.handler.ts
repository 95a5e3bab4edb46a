import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { OneClawError } from '@oneclaw/core';
import { SessionIndex } from '../session-index';
import { ListSessionsQuery } from './list-sessions.query';

/** Longest search (characters): a list filter, not a document. */
export const MAX_SESSION_QUERY_CHARS = 200;

@QueryHandler(ListSessionsQuery)
export class ListSessionsHandler implements IQueryHandler<ListSessionsQuery> {
  constructor(private readonly index: SessionIndex) {}

  execute(query: ListSessionsQuery) {
    if (query.query.length > MAX_SESSION_QUERY_CHARS) {
      throw new OneClawError('query_too_long', `A session search is at most ${MAX_SESSION_QUERY_CHARS} characters; this one has ${query.query.length}. Search for fewer words.`, {
        max: MAX_SESSION_QUERY_CHARS,
      });
    }
    return this.index.list(query.query, query.signal);
  }
}

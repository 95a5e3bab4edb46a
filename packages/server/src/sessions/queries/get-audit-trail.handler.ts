import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { buildAuditTrail, sessionErrors } from '@oneclaw/core';
import { SessionRepository } from '../session-repository';
import { GetAuditTrailQuery } from './get-audit-trail.query';

/** S3: the session's events and, for each model request, the tools the model saw and which load added each. */
@QueryHandler(GetAuditTrailQuery)
export class GetAuditTrailHandler implements IQueryHandler<GetAuditTrailQuery> {
  constructor(private readonly sessions: SessionRepository) {}

  async execute(query: GetAuditTrailQuery) {
    const events = await this.sessions.events(query.sessionId);
    if (events.length === 0) throw sessionErrors.notFound(query.sessionId);
    return buildAuditTrail(events);
  }
}

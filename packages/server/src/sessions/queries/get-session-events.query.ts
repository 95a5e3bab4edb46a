import { Query } from '@nestjs/cqrs';
import type { SessionEvents } from '@oneclaw/api-contract';

/** One page of a session's events: from `fromRevision`, at most `limit` (checked by the controller). */
export class GetSessionEventsQuery extends Query<SessionEvents> {
  constructor(
    readonly sessionId: string,
    readonly fromRevision: number,
    readonly limit: number,
  ) {
    super();
  }
}

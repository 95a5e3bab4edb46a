import { Query } from '@nestjs/cqrs';
import type { SessionEvents } from '@oneclaw/api-contract';

export class GetSessionEventsQuery extends Query<SessionEvents> {
  constructor(readonly sessionId: string) {
    super();
  }
}

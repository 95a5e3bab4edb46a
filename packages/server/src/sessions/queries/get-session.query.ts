import { Query } from '@nestjs/cqrs';
import type { SessionView } from '@oneclaw/api-contract';

export class GetSessionQuery extends Query<SessionView> {
  constructor(readonly sessionId: string) {
    super();
  }
}

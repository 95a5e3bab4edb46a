import { Query } from '@nestjs/cqrs';
import type { SessionView } from '../session-view';

export class GetSessionQuery extends Query<SessionView> {
  constructor(readonly sessionId: string) {
    super();
  }
}

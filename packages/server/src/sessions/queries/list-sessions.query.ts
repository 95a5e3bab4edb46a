import { Query } from '@nestjs/cqrs';
import type { SessionSummary } from '@oneclaw/api-contract';

export class ListSessionsQuery extends Query<readonly SessionSummary[]> {
  /** Words that must each occur in a session's title or message text (any case); empty: every session. */
  constructor(readonly query = '') {
    super();
  }
}

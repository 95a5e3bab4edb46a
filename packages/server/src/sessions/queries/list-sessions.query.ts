import { Query } from '@nestjs/cqrs';
import type { SessionSummary } from '@oneclaw/api-contract';

export class ListSessionsQuery extends Query<readonly SessionSummary[]> {
  constructor(
    /** Words that must each occur in a session's title or message text (any case); empty: every session. */
    readonly query = '',
    /** Aborted when nobody waits for the answer any more (the client went away): the search stops. */
    readonly signal?: AbortSignal,
  ) {
    super();
  }
}

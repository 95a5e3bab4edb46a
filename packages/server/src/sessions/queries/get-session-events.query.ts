import { Query } from '@nestjs/cqrs';
import type { RecordedEvent } from '@oneclaw/core';

export class GetSessionEventsQuery extends Query<{ readonly sessionId: string; readonly events: readonly RecordedEvent[] }> {
  constructor(readonly sessionId: string) {
    super();
  }
}

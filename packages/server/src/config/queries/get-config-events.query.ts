import { Query } from '@nestjs/cqrs';
import type { RecordedEvent } from '@oneclaw/core';

/** The `config` stream as stored: every configuration change, for audit. */
export class GetConfigEventsQuery extends Query<{ readonly streamId: string; readonly events: readonly RecordedEvent[] }> {
  constructor(readonly fromRevision: number = 0) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { SessionView } from '@oneclaw/api-contract';

export class RenameSessionCommand extends Command<SessionView> {
  constructor(
    readonly sessionId: string,
    readonly title: string,
    /** From Idempotency-Key: a retried rename records once. */
    readonly requestId?: string,
    readonly expectedRevision?: number,
  ) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { SessionView } from '@oneclaw/api-contract';

export class StartSessionCommand extends Command<SessionView> {
  constructor(
    readonly sessionId: string,
    readonly agentId: string,
    /** From Idempotency-Key: a retried start records once. */
    readonly requestId?: string,
  ) {
    super();
  }
}

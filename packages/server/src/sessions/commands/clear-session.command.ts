import { Command } from '@nestjs/cqrs';
import type { SessionView } from '@oneclaw/api-contract';

export class ClearSessionCommand extends Command<SessionView> {
  constructor(
    readonly sessionId: string,
    readonly requestId?: string,
    readonly expectedRevision?: number,
  ) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { SessionView } from '../session-view';

export class ClearSessionCommand extends Command<SessionView> {
  constructor(
    readonly sessionId: string,
    readonly requestId?: string,
    readonly expectedRevision?: number,
  ) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { SessionView } from '../session-view';

export class UnloadToolGroupCommand extends Command<SessionView> {
  constructor(
    readonly sessionId: string,
    readonly groupName: string,
    readonly requestId?: string,
    readonly expectedRevision?: number,
  ) {
    super();
  }
}

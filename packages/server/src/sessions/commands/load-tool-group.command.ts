import { Command } from '@nestjs/cqrs';
import type { SessionView } from '@oneclaw/api-contract';

/** The user loads a group from the UI (source `user`); the model loads through the load_tool_group tool. */
export class LoadToolGroupCommand extends Command<SessionView> {
  constructor(
    readonly sessionId: string,
    readonly groupName: string,
    readonly requestId?: string,
    readonly expectedRevision?: number,
  ) {
    super();
  }
}

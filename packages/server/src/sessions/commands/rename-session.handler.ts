import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomCommandId } from '../../server-config';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { RenameSessionCommand } from './rename-session.command';

/** Names the session for the list (SessionRenamed); the conversation is untouched. */
@CommandHandler(RenameSessionCommand)
export class RenameSessionHandler implements ICommandHandler<RenameSessionCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
  ) {}

  async execute(command: RenameSessionCommand) {
    const recorded = await this.sessions.record(
      command.sessionId,
      { type: 'RenameSession', title: command.title },
      {
        commandId: `${command.sessionId}:rename:${command.requestId ?? randomCommandId()}`,
        ...(command.expectedRevision !== undefined ? { expectedRevision: command.expectedRevision } : {}),
      },
    );
    return this.views.of(recorded);
  }
}

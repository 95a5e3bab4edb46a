import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomCommandId } from '../../server-config';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { ClearSessionCommand } from './clear-session.command';

@CommandHandler(ClearSessionCommand)
export class ClearSessionHandler implements ICommandHandler<ClearSessionCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
  ) {}

  async execute(command: ClearSessionCommand) {
    const recorded = await this.sessions.record(
      command.sessionId,
      { type: 'ClearSession', reason: 'user' },
      {
        commandId: `${command.sessionId}:clear:${command.requestId ?? randomCommandId()}`,
        ...(command.expectedRevision !== undefined ? { expectedRevision: command.expectedRevision } : {}),
      },
    );
    return this.views.of(recorded);
  }
}

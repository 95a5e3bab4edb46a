import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomCommandId } from '../../server-config';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { LoadToolGroupCommand } from './load-tool-group.command';

@CommandHandler(LoadToolGroupCommand)
export class LoadToolGroupHandler implements ICommandHandler<LoadToolGroupCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
  ) {}

  async execute(command: LoadToolGroupCommand) {
    const recorded = await this.sessions.record(
      command.sessionId,
      { type: 'LoadToolGroup', groupName: command.groupName, source: { kind: 'user' } },
      {
        commandId: `${command.sessionId}:load:${command.requestId ?? randomCommandId()}`,
        ...(command.expectedRevision !== undefined ? { expectedRevision: command.expectedRevision } : {}),
      },
    );
    return this.views.of(recorded);
  }
}

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomCommandId } from '../../server-config';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { UnloadToolGroupCommand } from './unload-tool-group.command';

@CommandHandler(UnloadToolGroupCommand)
export class UnloadToolGroupHandler implements ICommandHandler<UnloadToolGroupCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
  ) {}

  async execute(command: UnloadToolGroupCommand) {
    const recorded = await this.sessions.record(
      command.sessionId,
      { type: 'UnloadToolGroup', groupName: command.groupName },
      {
        commandId: `${command.sessionId}:unload:${command.requestId ?? randomCommandId()}`,
        ...(command.expectedRevision !== undefined ? { expectedRevision: command.expectedRevision } : {}),
      },
    );
    return this.views.of(recorded);
  }
}

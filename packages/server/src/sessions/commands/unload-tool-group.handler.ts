import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomCommandId } from '../../server-config';
import { CutOffTurns } from '../../turns/cut-off-turns';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { recordOutsideTurn } from './record-outside-turn';
import { UnloadToolGroupCommand } from './unload-tool-group.command';

/**
 * The user unloads a group. Refused with 409 turn_in_progress while a turn runs, here or on
 * another replica: the turn would still send the group's tools and run its calls (docs/api.md).
 * A turn that was cut off is closed first, as before a clear.
 */
@CommandHandler(UnloadToolGroupCommand)
export class UnloadToolGroupHandler implements ICommandHandler<UnloadToolGroupCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
    private readonly cutOffTurns: CutOffTurns,
  ) {}

  async execute(command: UnloadToolGroupCommand) {
    const { sessionId, expectedRevision } = command;
    const recorded = await recordOutsideTurn(
      { sessions: this.sessions, cutOffTurns: this.cutOffTurns },
      sessionId,
      { type: 'UnloadToolGroup', groupName: command.groupName },
      { commandId: `${sessionId}:unload:${command.requestId ?? randomCommandId()}`, ...(expectedRevision !== undefined ? { expectedRevision } : {}) },
    );
    return this.views.of(recorded);
  }
}

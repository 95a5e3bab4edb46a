import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomCommandId } from '../../server-config';
import { CutOffTurns } from '../../turns/cut-off-turns';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { LoadToolGroupCommand } from './load-tool-group.command';
import { recordOutsideTurn } from './record-outside-turn';

/**
 * The user loads a group. Refused with 409 turn_in_progress while a turn runs, here or on another
 * replica: the turn sends each round the tools it decided on, so the load would miss its next
 * request (docs/api.md). A turn that was cut off is closed first, as before a clear.
 */
@CommandHandler(LoadToolGroupCommand)
export class LoadToolGroupHandler implements ICommandHandler<LoadToolGroupCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
    private readonly cutOffTurns: CutOffTurns,
  ) {}

  async execute(command: LoadToolGroupCommand) {
    const { sessionId, expectedRevision } = command;
    const recorded = await recordOutsideTurn(
      { sessions: this.sessions, cutOffTurns: this.cutOffTurns },
      sessionId,
      { type: 'LoadToolGroup', groupName: command.groupName, source: { kind: 'user' } },
      { commandId: `${sessionId}:load:${command.requestId ?? randomCommandId()}`, ...(expectedRevision !== undefined ? { expectedRevision } : {}) },
    );
    return this.views.of(recorded);
  }
}

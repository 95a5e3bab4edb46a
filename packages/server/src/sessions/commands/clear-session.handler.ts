import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomCommandId } from '../../server-config';
import { CutOffTurns } from '../../turns/cut-off-turns';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { ClearSessionCommand } from './clear-session.command';
import { recordOutsideTurn } from './record-outside-turn';

/**
 * Clears the conversation (SessionCleared). Refused with 409 turn_in_progress while a turn runs,
 * here or on another replica (its results would land in the cleared conversation); a turn that
 * was cut off is closed first, as before a message.
 */
@CommandHandler(ClearSessionCommand)
export class ClearSessionHandler implements ICommandHandler<ClearSessionCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
    private readonly cutOffTurns: CutOffTurns,
  ) {}

  async execute(command: ClearSessionCommand) {
    const { sessionId, expectedRevision } = command;
    const recorded = await recordOutsideTurn(
      { sessions: this.sessions, cutOffTurns: this.cutOffTurns },
      sessionId,
      { type: 'ClearSession', reason: 'user' },
      { commandId: `${sessionId}:clear:${command.requestId ?? randomCommandId()}`, ...(expectedRevision !== undefined ? { expectedRevision } : {}) },
    );
    return this.views.of(recorded);
  }
}

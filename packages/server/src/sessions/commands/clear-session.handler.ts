import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomCommandId } from '../../server-config';
import { CutOffTurns } from '../../turns/cut-off-turns';
import { checkRevision, SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { ClearSessionCommand } from './clear-session.command';

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
    // If-Match is about what the client read: checked before closing a cut-off turn moves the
    // revision on (that close is the server's, and a refused request must change nothing).
    const read = expectedRevision !== undefined ? await this.sessions.load(sessionId) : undefined;
    if (read && expectedRevision !== undefined) checkRevision(read.revision, expectedRevision);
    const { session } = await this.cutOffTurns.closeIfCutOff(sessionId, undefined, read);
    const recorded = await this.sessions.record(
      sessionId,
      { type: 'ClearSession', reason: 'user' },
      {
        commandId: `${sessionId}:clear:${command.requestId ?? randomCommandId()}`,
        // The revision checked above, or the one after the cut-off turn's close (a session that is not there has none: record refuses it).
        ...(expectedRevision !== undefined ? { expectedRevision: typeof session.revision === 'number' ? session.revision : expectedRevision } : {}),
      },
    );
    return this.views.of(recorded);
  }
}

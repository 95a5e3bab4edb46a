import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomCommandId } from '../../server-config';
import { TurnRegistry } from '../../turns/turn-registry';
import { SessionRepository } from '../session-repository';
import { ArchiveSessionCommand } from './archive-session.command';

/**
 * Deletes a session for the user: records `SessionArchived` (the stream and its audit stay).
 * A turn this server runs in it is cancelled first: nobody is left to read its answer. It still
 * records its stop, which an archived session accepts. Deleting twice answers the same.
 */
@CommandHandler(ArchiveSessionCommand)
export class ArchiveSessionHandler implements ICommandHandler<ArchiveSessionCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly turns: TurnRegistry,
  ) {}

  async execute(command: ArchiveSessionCommand): Promise<void> {
    await this.sessions.get(command.sessionId);
    this.turns.cancel(command.sessionId, 'the session was deleted');
    await this.sessions.record(command.sessionId, { type: 'ArchiveSession' }, { commandId: `${command.sessionId}:archive:${command.requestId ?? randomCommandId()}` });
  }
}

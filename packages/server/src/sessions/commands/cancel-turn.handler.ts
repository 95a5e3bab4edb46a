import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { TurnRegistry } from '../../turns/turn-registry';
import { SessionRepository } from '../session-repository';
import { CancelTurnCommand } from './cancel-turn.command';

/** Stops the session's running turn on this server; the turn records `TurnFinished{cancelled}` itself. */
@CommandHandler(CancelTurnCommand)
export class CancelTurnHandler implements ICommandHandler<CancelTurnCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly turns: TurnRegistry,
  ) {}

  async execute(command: CancelTurnCommand) {
    await this.sessions.get(command.sessionId);
    return { cancelled: this.turns.cancel(command.sessionId) };
  }
}

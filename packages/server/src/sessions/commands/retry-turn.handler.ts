import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { TurnRunner } from '../../turns/turn-runner';
import { RetryTurnCommand } from './retry-turn.command';

@CommandHandler(RetryTurnCommand)
export class RetryTurnHandler implements ICommandHandler<RetryTurnCommand> {
  constructor(private readonly runner: TurnRunner) {}

  execute(command: RetryTurnCommand) {
    return this.runner.run({
      sessionId: command.sessionId,
      text: '',
      redo: { kind: 'retry', ...(command.messageId ? { messageId: command.messageId } : {}) },
      ...(command.requestId ? { requestId: command.requestId } : {}),
      ...(command.observer ? { observer: command.observer } : {}),
      ...(command.signal ? { signal: command.signal } : {}),
    });
  }
}

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { TurnRunner } from '../../turns/turn-runner';
import { SendMessageCommand } from './send-message.command';

@CommandHandler(SendMessageCommand)
export class SendMessageHandler implements ICommandHandler<SendMessageCommand> {
  constructor(private readonly runner: TurnRunner) {}

  execute(command: SendMessageCommand) {
    return this.runner.run({
      sessionId: command.sessionId,
      text: command.text,
      ...(command.requestId ? { requestId: command.requestId } : {}),
      ...(command.observer ? { observer: command.observer } : {}),
      ...(command.signal ? { signal: command.signal } : {}),
    });
  }
}

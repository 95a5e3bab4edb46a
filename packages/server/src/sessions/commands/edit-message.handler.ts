import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { TurnRunner } from '../../turns/turn-runner';
import { EditMessageCommand } from './edit-message.command';

@CommandHandler(EditMessageCommand)
export class EditMessageHandler implements ICommandHandler<EditMessageCommand> {
  constructor(private readonly runner: TurnRunner) {}

  execute(command: EditMessageCommand) {
    return this.runner.run({
      sessionId: command.sessionId,
      text: command.text,
      redo: { kind: 'edit', messageId: command.messageId },
      ...(command.requestId ? { requestId: command.requestId } : {}),
      ...(command.observer ? { observer: command.observer } : {}),
      ...(command.signal ? { signal: command.signal } : {}),
    });
  }
}

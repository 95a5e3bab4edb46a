import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AgentDirectory } from '../../agents/agent-directory';
import { randomCommandId } from '../../server-config';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { StartSessionCommand } from './start-session.command';

@CommandHandler(StartSessionCommand)
export class StartSessionHandler implements ICommandHandler<StartSessionCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly agents: AgentDirectory,
    private readonly views: SessionViews,
  ) {}

  async execute(command: StartSessionCommand) {
    await this.agents.find(command.agentId); // an unknown agent is refused before anything is recorded (caught up: it may be new)
    const commandId = `${command.sessionId}:start:${command.requestId ?? randomCommandId()}`;
    if (command.requestId) {
      // A retry of a start that already landed answers like the first time instead of 409.
      const [first] = await this.sessions.events(command.sessionId);
      if (first?.type === 'SessionStarted' && first.metadata.eventId === `${commandId}:0`) {
        return this.views.of(await this.sessions.get(command.sessionId));
      }
    }
    const recorded = await this.sessions.record(command.sessionId, { type: 'StartSession', sessionId: command.sessionId, agentId: command.agentId }, { commandId });
    return this.views.of(recorded);
  }
}

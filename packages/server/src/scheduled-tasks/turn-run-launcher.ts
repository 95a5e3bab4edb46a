import { DEFAULT_AGENT_ID, type AgentDirectory } from '../agents/agent-directory';
import type { SessionRepository } from '../sessions/session-repository';
import type { TurnRunner } from '../turns/turn-runner';
import type { TaskRunLauncher, TaskRunRequest, TaskRunResult } from './task-run-launcher';

/** Runs a task's prompt as the first turn of a new session, like a user sending it. */
export class TurnRunLauncher implements TaskRunLauncher {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly runner: TurnRunner,
    private readonly agents: Pick<AgentDirectory, 'has'>,
  ) {}

  async run(request: TaskRunRequest): Promise<TaskRunResult> {
    // An agent removed since the task was scheduled: the run still happens, with the default agent.
    const agentId = this.agents.has(request.agentId) ? request.agentId : DEFAULT_AGENT_ID;
    await this.sessions.record(request.sessionId, { type: 'StartSession', sessionId: request.sessionId, agentId }, { commandId: `${request.sessionId}:start` });
    const result = await this.runner.run({ sessionId: request.sessionId, text: request.prompt, signal: request.signal });
    return { reason: result.reason, detail: result.detail };
  }
}

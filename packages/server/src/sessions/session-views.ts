import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '../agents/agent-directory';
import { ToolRuntime } from '../tools/tool-runtime';
import { TurnRegistry } from '../turns/turn-registry';
import type { SessionSnapshot } from './session-repository';
import { toSessionView, type SessionView } from './session-view';

/** Builds the API's view of a session with the live catalogue, the agent's allow-list and the turn state. */
@Injectable()
export class SessionViews {
  constructor(
    private readonly tools: ToolRuntime,
    private readonly agents: AgentDirectory,
    private readonly turns: TurnRegistry,
  ) {}

  of(snapshot: SessionSnapshot): SessionView {
    const agentId = snapshot.state.agentId;
    const agent = agentId && this.agents.has(agentId) ? this.agents.get(agentId) : undefined;
    return toSessionView(snapshot, this.tools.registry, agent, this.turns.isRunning(snapshot.sessionId));
  }
}

import { Injectable } from '@nestjs/common';
import type { SessionView } from '@oneclaw/api-contract';
import { activeToolSet } from '@oneclaw/core';
import { AgentDirectory } from '../agents/agent-directory';
import { ToolRuntime } from '../tools/tool-runtime';
import { TurnRegistry } from '../turns/turn-registry';
import type { SessionSnapshot } from './session-repository';

/** Builds the API's view of a session with the live catalogue, the agent's allow-list and the turn state. */
@Injectable()
export class SessionViews {
  constructor(
    private readonly tools: ToolRuntime,
    private readonly agents: AgentDirectory,
    private readonly turns: TurnRegistry,
  ) {}

  of(snapshot: SessionSnapshot): SessionView {
    const { state } = snapshot;
    const allowedTools = state.agentId && this.agents.has(state.agentId) ? this.agents.get(state.agentId).allowedTools : undefined;
    return {
      sessionId: snapshot.sessionId,
      agentId: state.agentId,
      revision: snapshot.revision,
      messages: state.transcript,
      supersededMessageIds: state.supersededMessageIds,
      loadedGroups: state.loadedGroups.map((g) => g.groupName),
      activeTools: activeToolSet(state, this.tools.registry, allowedTools ? { allowedTools } : {}),
      turnInProgress: this.turns.isRunning(snapshot.sessionId),
      title: state.title,
      summary: state.summary ? { text: state.summary.text, boundaryMessageId: state.summary.boundaryMessageId } : null,
    };
  }
}

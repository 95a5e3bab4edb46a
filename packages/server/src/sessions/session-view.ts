import { activeToolSet, type MessageData, type ToolCatalogue } from '@oneclaw/core';
import type { Agent } from '../agents/agent-directory';
import type { SessionSnapshot } from './session-repository';

export interface SessionView {
  readonly sessionId: string;
  readonly agentId: string | null;
  /** Revision of the stream's last event: send it back as If-Match to change the session only if nothing moved. */
  readonly revision: number | 'no_stream';
  readonly messages: readonly MessageData[];
  readonly loadedGroups: readonly string[];
  /** What the model would be sent now: core tools, then loaded groups' tools (T5 allow-list applied). */
  readonly activeTools: readonly string[];
  readonly turnInProgress: boolean;
}

export function toSessionView(snapshot: SessionSnapshot, catalogue: ToolCatalogue, agent: Agent | undefined, turnInProgress: boolean): SessionView {
  const { state } = snapshot;
  return {
    sessionId: snapshot.sessionId,
    agentId: state.agentId,
    revision: snapshot.revision,
    messages: state.messages,
    loadedGroups: state.loadedGroups.map((g) => g.groupName),
    activeTools: activeToolSet(state, catalogue, agent?.allowedTools ? { allowedTools: agent.allowedTools } : {}),
    turnInProgress,
  };
}

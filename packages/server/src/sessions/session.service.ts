import { Inject, Injectable } from '@nestjs/common';
import {
  activeToolSet,
  executeSessionCommand,
  OneClawError,
  replay,
  sessionErrors,
  sessionStreamId,
  type EventStore,
  type ExecutedCommand,
  type RecordedEvent,
  type SessionCommand,
  type SessionState,
  type ToolCatalogue,
} from '@oneclaw/core';
import { randomCommandId } from '../server-config';
import { EVENT_STORE, TOOL_CATALOGUE } from '../tokens';

const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface SessionView {
  readonly sessionId: string;
  readonly agentId: string | null;
  readonly revision: number | 'no_stream';
  readonly messages: SessionState['messages'];
  readonly loadedGroups: readonly string[];
  readonly activeTools: readonly string[];
}

/** The session API of the foundation: commands go through the pure decider and the event store. */
@Injectable()
export class SessionService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(TOOL_CATALOGUE) private readonly catalogue: ToolCatalogue,
  ) {}

  async execute(sessionId: string, command: SessionCommand, commandId?: string): Promise<ExecutedCommand> {
    assertSessionId(sessionId);
    return executeSessionCommand(this.store, sessionId, command, {
      now: () => new Date(),
      catalogue: this.catalogue,
      commandId: commandId ? `${sessionId}:${commandId}` : randomCommandId(),
    });
  }

  async view(sessionId: string): Promise<SessionView> {
    const events = await this.events(sessionId);
    const state = replay(events);
    if (state.status !== 'active') throw sessionErrors.notFound(sessionId);
    return toView(sessionId, state, events.at(-1)?.revision ?? 'no_stream', this.catalogue);
  }

  viewOf(sessionId: string, executed: ExecutedCommand): SessionView {
    return toView(sessionId, executed.state, executed.revision, this.catalogue);
  }

  async events(sessionId: string): Promise<readonly RecordedEvent[]> {
    assertSessionId(sessionId);
    return this.store.readStream(sessionStreamId(sessionId));
  }
}

function toView(sessionId: string, state: SessionState, revision: number | 'no_stream', catalogue: ToolCatalogue): SessionView {
  return {
    sessionId,
    agentId: state.agentId,
    revision,
    messages: state.messages,
    loadedGroups: state.loadedGroups.map((g) => g.groupName),
    activeTools: activeToolSet(state, catalogue),
  };
}

function assertSessionId(sessionId: string): void {
  if (!SESSION_ID.test(sessionId)) {
    throw new OneClawError('invalid_session_id', 'A session id is 1 to 64 letters, digits, "-" or "_".', { sessionId: sessionId.slice(0, 80) });
  }
}

import { SESSION_EVENT_SCHEMA_VERSION, type SessionEvent } from '../events/session-events';
import type { SessionDecisionContext } from '../session/decide';
import type { SessionCommand } from '../session/session-commands';
import { sessionDecider } from '../session/session-decider';
import type { SessionState } from '../session/session-state';
import type { ToolCatalogue } from '../tools/tool-catalogue';
import { deciderScenario, type DeciderScenario } from './decider-scenario';

export type SessionScenario = DeciderScenario<SessionState, SessionCommand, SessionEvent>;

/**
 * `deciderScenario` for a session with this tool catalogue: a stepping clock from
 * 2026-01-01T00:00:00Z and event ids `cmd<n>:<i>`.
 */
export function sessionScenario(catalogue: ToolCatalogue): SessionScenario {
  return deciderScenario<SessionState, SessionCommand, SessionEvent, SessionDecisionContext>(sessionDecider, {
    context: { catalogue },
    schemaVersion: SESSION_EVENT_SCHEMA_VERSION,
  });
}

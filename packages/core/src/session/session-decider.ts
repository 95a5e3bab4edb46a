import type { Decider } from '../aggregate/decider';
import type { SessionEvent } from '../events/session-events';
import { decideSession, type SessionDecisionContext } from './decide';
import { evolve } from './evolve';
import type { SessionCommand } from './session-commands';
import { initialSessionState, type SessionState } from './session-state';

/**
 * A session as a decider, the same shape as the configuration and the scheduled tasks. Unlike
 * theirs, its events live in one stream per session (`session-<id>`), so it is no `Aggregate`:
 * SessionRepository stamps and appends them per session.
 */
export const sessionDecider: Decider<SessionState, SessionCommand, SessionEvent, SessionDecisionContext> = {
  initialState: initialSessionState,
  decide: decideSession,
  evolve,
};

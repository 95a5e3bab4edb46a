/**
 * The turn path as it was before F5 (issue 17), for the benchmark's side-by-side baseline, put
 * back by wrapping prototypes (like part-clock's `instrument`) rather than by flags in the server:
 * - every command of a turn in its own append (`SessionRepository.recordAll` split up);
 * - the agent and the model each catch up with the configuration stream (`resolve` reads again);
 * - `closeIfCutOff` reads the session again right after the turn read it.
 * The store's own baseline is `SqliteEventStore.open(file, { groupCommit: false })`, and the old
 * JSON answer is asked with `?include=session`. Returns the function that puts the new path back.
 */
import { ConfiguredModelResolver, type ResolveOptions } from '../config/model-resolver';
import type { Agent } from '../agents/agent-directory';
import { type Recorded, SessionRepository, type StagedCommand } from '../sessions/session-repository';
import { CutOffTurns } from '../turns/cut-off-turns';

export function useBeforeF5Path(): () => void {
  const recordAll = SessionRepository.prototype.recordAll;
  const resolve = ConfiguredModelResolver.prototype.resolve;
  const closeIfCutOff = CutOffTurns.prototype.closeIfCutOff;

  SessionRepository.prototype.recordAll = async function (this: SessionRepository, sessionId: string, steps: readonly StagedCommand[]): Promise<Recorded> {
    let last: Recorded | undefined;
    const events: Recorded['events'][number][] = [];
    for (const step of steps) {
      last = await recordAll.call(this, sessionId, [step]);
      events.push(...last.events);
    }
    if (!last) throw new Error('recordAll without commands');
    return { ...last, events };
  };
  ConfiguredModelResolver.prototype.resolve = function (this: ConfiguredModelResolver, agent: Agent, options: ResolveOptions = {}) {
    return resolve.call(this, agent, { ...options, caughtUp: false });
  };
  CutOffTurns.prototype.closeIfCutOff = function (this: CutOffTurns, sessionId: string, ownTurnId?: string) {
    return closeIfCutOff.call(this, sessionId, ownTurnId);
  };
  return () => {
    SessionRepository.prototype.recordAll = recordAll;
    ConfiguredModelResolver.prototype.resolve = resolve;
    CutOffTurns.prototype.closeIfCutOff = closeIfCutOff;
  };
}

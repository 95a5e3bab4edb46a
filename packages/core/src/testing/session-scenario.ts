import type { SessionEvent } from '../events/session-events';
import { decide } from '../session/decide';
import { replay } from '../session/evolve';
import type { SessionCommand } from '../session/session-commands';
import type { SessionState } from '../session/session-state';
import type { ToolCatalogue } from '../tools/tool-catalogue';
import { deterministicIds } from '../ids';
import { steppingClock } from './test-events';

/**
 * Given/when/then for the session decider: `given` commands build the history (each decided
 * against the state so far), `when` decides one more. Clock and ids are fixed, so results
 * are exact values to compare.
 */
export interface SessionScenario {
  /** Decides and records each command in turn. */
  given(...commands: SessionCommand[]): SessionScenario;
  /** Decides the command and records its events, as a successful append would. */
  when(command: SessionCommand): SessionEvent[];
  state(): SessionState;
  history(): readonly SessionEvent[];
}

export function sessionScenario(catalogue: ToolCatalogue): SessionScenario {
  const clock = steppingClock();
  let n = 0;
  const history: SessionEvent[] = [];
  const state = (): SessionState => replay(history);
  const run = (command: SessionCommand): SessionEvent[] =>
    decide(command, state(), { now: clock, newId: deterministicIds(`cmd${n++}`), catalogue });

  const api: SessionScenario = {
    given(...commands: SessionCommand[]) {
      for (const command of commands) history.push(...run(command));
      return api;
    },
    when(command: SessionCommand): SessionEvent[] {
      const events = run(command);
      history.push(...events);
      return events;
    },
    state,
    history: (): readonly SessionEvent[] => history,
  };
  return api;
}

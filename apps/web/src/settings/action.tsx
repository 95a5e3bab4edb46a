import { useCallback, useRef, useState } from 'preact/hooks';
import type { Reload } from '../api/use-resource';
import { done, failed, IDLE, running, type ActionState } from './action-state';
import { CheckIcon, PendingIcon } from '../icons/icons';

export interface Action {
  readonly state: ActionState;
  readonly busy: boolean;
  /**
   * Runs one change: shows `progress`, awaits `work`, then reloads the screen's data (`after`)
   * and, once the reloaded data is in, shows `success`, or shows the server's detail prefixed
   * with `what`. Resolves true on success so a form can clear itself. A second change while one
   * runs is ignored: the buttons are disabled meanwhile, this guards a double tap that lands
   * before the re-render.
   */
  run(what: { progress: string; success: string; failure: string }, work: () => Promise<unknown>): Promise<boolean>;
  clear(): void;
}

export function useAction(after: Reload): Action {
  const [state, setState] = useState<ActionState>(IDLE);
  const inFlight = useRef(false);
  const afterRef = useRef(after);
  afterRef.current = after;

  const run = useCallback<Action['run']>(async (what, work) => {
    if (inFlight.current) return false;
    inFlight.current = true;
    setState(running(what.progress));
    let outcome: ActionState;
    try {
      await work();
      outcome = done(what.success);
    } catch (error) {
      outcome = failed(what.failure, error);
    }
    try {
      // Also after a failure: the change may have half-happened, or someone else changed it.
      // Awaited, so "done" never shows next to the old data (a reader would take the old for the new).
      await afterRef.current();
    } finally {
      inFlight.current = false;
      setState(outcome);
    }
    return outcome.kind === 'done';
  }, []);
  const clear = useCallback(() => setState(IDLE), []);
  return { state, busy: state.kind === 'running', run, clear };
}

/**
 * Where a change's progress and outcome are shown. The polite live region is always in the page,
 * so screen readers announce what lands in it; a failure is an alert.
 */
export function ActionStatus({ state, class: className }: { state: ActionState; class?: string }) {
  return (
    <div class={`action-status${className ? ` ${className}` : ''}`} aria-live="polite">
      {state.kind === 'running' && (
        <p class="action-status__running">
          <PendingIcon class="action-status__icon" />
          {state.message}
        </p>
      )}
      {state.kind === 'done' && (
        <p class="action-status__done">
          <CheckIcon class="action-status__icon" />
          {state.message}
        </p>
      )}
      {state.kind === 'failed' && (
        <p class="error" role="alert">
          {state.message}
        </p>
      )}
    </div>
  );
}

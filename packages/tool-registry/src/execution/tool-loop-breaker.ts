import type { ToolResult } from '../tool-result';

export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 3;

export type LoopVerdict =
  | { readonly stop: false }
  | {
      readonly stop: true;
      readonly toolName: string;
      readonly errorType: string;
      readonly failures: number;
      /** Plain words for the model and the user: what kept failing and what to do instead. */
      readonly reason: string;
    };

interface Streak {
  errorType: string;
  count: number;
  lastMessage: string;
}

const CONTINUE: LoopVerdict = Object.freeze({ stop: false });

/**
 * Ends a turn that keeps repeating a failing call (the origin app once made 61 identical failing
 * calls in one turn; RELIABILITY.md B5.5). It trips when one tool fails with the same error type
 * N times in a row. Streaks are per tool: another tool succeeding in the same reply does not
 * reset them (the "pair the failing call with a successful one" evasion); a success of the same
 * tool, or a different error type, does. One breaker per turn; `reset` starts over.
 */
export class ToolLoopBreaker {
  private readonly streaks = new Map<string, Streak>();
  private readonly limit: number;

  constructor(options: { readonly maxConsecutiveFailures?: number } = {}) {
    this.limit = Math.max(1, Math.floor(options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES));
  }

  record(outcome: { readonly toolName: string; readonly result: ToolResult }): LoopVerdict {
    const { toolName, result } = outcome;
    if (result.status === 'success') {
      this.streaks.delete(toolName);
      return CONTINUE;
    }
    const streak = this.streaks.get(toolName);
    if (streak && streak.errorType === result.errorType) {
      streak.count += 1;
      streak.lastMessage = result.message;
    } else {
      this.streaks.set(toolName, { errorType: result.errorType, count: 1, lastMessage: result.message });
    }
    const current = this.streaks.get(toolName) as Streak;
    if (current.count < this.limit) return CONTINUE;
    return {
      stop: true,
      toolName,
      errorType: current.errorType,
      failures: current.count,
      reason:
        `Stopped: '${toolName}' failed ${current.count} times in a row with the same error (${current.errorType}): ${current.lastMessage} ` +
        'Calling it again the same way will not help. Explain the problem to the user or try a different approach.',
    };
  }

  /** Records a reply's outcomes in order; the first verdict that says stop, if any. */
  recordAll(outcomes: Iterable<{ readonly toolName: string; readonly result: ToolResult }>): LoopVerdict {
    let verdict: LoopVerdict = CONTINUE;
    for (const outcome of outcomes) {
      const v = this.record(outcome);
      if (v.stop && !verdict.stop) verdict = v;
    }
    return verdict;
  }

  reset(): void {
    this.streaks.clear();
  }
}

import { createHash } from 'node:crypto';
import { canonicalJson } from '@oneclaw/core';
import type { ToolResult } from '../tool-result';

export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 3;
export const DEFAULT_MAX_SAME_RESULTS = 3;

/** One call's outcome as the breaker sees it. */
export interface LoopOutcome {
  readonly toolName: string;
  /** The parsed arguments; only an identical-result repeat compares them. */
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
  readonly result: ToolResult;
}

export type LoopVerdict =
  | {
      readonly stop: false;
      /** Said to the model with this call's result: one more such call ends the turn (LOOP-01, LOOP-07). */
      readonly warning?: string;
    }
  | {
      readonly stop: true;
      readonly toolName: string;
      /** `failures`: one tool failing with one error type; `same_result`: one call giving one result again and again. */
      readonly kind: 'failures' | 'same_result';
      /** The failures in a row, or the model replies that made the same call with the same result. */
      readonly count: number;
      /** For `failures`. */
      readonly errorType?: string;
      /** Plain words for the model and the user: what kept happening and what to do instead. */
      readonly reason: string;
    };

interface Streak {
  errorType: string;
  count: number;
  lastMessage: string;
}

const CONTINUE: LoopVerdict = Object.freeze({ stop: false });

/**
 * Ends a turn that goes round in circles (the origin app once made 61 identical failing calls
 * in one turn; RELIABILITY.md B5.5). One breaker per turn; `reset` starts over. It trips on:
 *
 * - **Failures:** one tool failing with the same error type N times in a row (default 3).
 *   Streaks are per tool: another tool succeeding in the same reply does not reset them (the
 *   "pair the failing call with a successful one" evasion, LOOP-06); a success of the same tool,
 *   or a different error type, does. Arguments are not compared, so mutating them (`a/`, `a//`,
 *   `./a/`) does not escape (LOOP-05).
 * - **The same result:** one call (tool and arguments, keys in any order) giving exactly the same
 *   successful result in M model replies of the turn (default 3), in any order (an A, B, A, B
 *   cycle of such calls trips too). A call whose result changes, such as polling a job or asking
 *   the time, never trips (LOOP-08). Counted once per reply, so a reply that repeats a call in
 *   parallel is not a loop by itself; that is the model's duplication, and the round cap bounds
 *   anything else.
 *
 * One call before either limit, the verdict carries a `warning` for the model, so it can change
 * course before the turn is stopped (LOOP-01's warning; LOOP-07's "warning then halt").
 */
export class ToolLoopBreaker {
  private readonly streaks = new Map<string, Streak>();
  /** Fingerprint (tool, arguments, result) → the replies it appeared in. Hashes: results can be large. */
  private readonly sameResults = new Map<string, number>();
  private readonly maxFailures: number;
  private readonly maxSameResults: number;

  constructor(options: { readonly maxConsecutiveFailures?: number; readonly maxSameResults?: number } = {}) {
    this.maxFailures = Math.max(1, Math.floor(options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES));
    this.maxSameResults = Math.max(1, Math.floor(options.maxSameResults ?? DEFAULT_MAX_SAME_RESULTS));
  }

  /** Records one call as a reply of its own. */
  record(outcome: LoopOutcome): LoopVerdict {
    return this.recordReply([outcome])[0] as LoopVerdict;
  }

  /** Records one model reply's calls, in order: one verdict per call. */
  recordReply(outcomes: readonly LoopOutcome[]): LoopVerdict[] {
    const seen = new Set<string>();
    return outcomes.map((outcome) => {
      if (outcome.result.status === 'error') return this.failure(outcome.toolName, outcome.result.errorType, outcome.result.message);
      this.streaks.delete(outcome.toolName);
      const fingerprint = fingerprintOf(outcome.toolName, outcome.arguments, outcome.result.result);
      if (seen.has(fingerprint)) return CONTINUE;
      seen.add(fingerprint);
      const count = (this.sameResults.get(fingerprint) ?? 0) + 1;
      this.sameResults.set(fingerprint, count);
      return this.sameResult(outcome.toolName, count);
    });
  }

  reset(): void {
    this.streaks.clear();
    this.sameResults.clear();
  }

  private failure(toolName: string, errorType: string, message: string): LoopVerdict {
    const streak = this.streaks.get(toolName);
    const current = streak && streak.errorType === errorType ? streak : { errorType, count: 0, lastMessage: message };
    current.count += 1;
    current.lastMessage = message;
    this.streaks.set(toolName, current);
    if (current.count === this.maxFailures - 1) {
      return {
        stop: false,
        warning: `[OneClaw: '${toolName}' has failed ${current.count} times in a row with this error (${errorType}). If it fails the same way once more, this turn stops. Change the arguments or try a different approach.]`,
      };
    }
    if (current.count < this.maxFailures) return CONTINUE;
    return {
      stop: true,
      toolName,
      kind: 'failures',
      count: current.count,
      errorType,
      reason:
        `Stopped: '${toolName}' failed ${current.count} times in a row with the same error (${errorType}): ${current.lastMessage} ` +
        'Calling it again the same way will not help. Explain the problem to the user or try a different approach.',
    };
  }

  private sameResult(toolName: string, count: number): LoopVerdict {
    if (count === this.maxSameResults - 1) {
      return {
        stop: false,
        warning: `[OneClaw: this call has given this same result ${count} times in this turn. Calling it again with the same arguments will not change it, and stops this turn. Use the result you have.]`,
      };
    }
    if (count < this.maxSameResults) return CONTINUE;
    return {
      stop: true,
      toolName,
      kind: 'same_result',
      count,
      reason:
        `Stopped: '${toolName}' was called ${count} times in this turn with the same arguments and gave the same result each time. ` +
        'Calling it again will not change it. Answer with the result you have, or explain to the user what is missing.',
    };
  }
}

function fingerprintOf(toolName: string, args: LoopOutcome['arguments'], result: string): string {
  return createHash('sha256')
    .update(`${toolName}\n${canonicalJson(args ?? {})}\n`)
    .update(result)
    .digest('base64');
}

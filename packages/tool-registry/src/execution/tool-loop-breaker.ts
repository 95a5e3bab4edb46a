import { createHash } from 'node:crypto';
import { canonicalJson } from '@oneclaw/core';
import type { ToolResult } from '../tool-result';

export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 3;
export const DEFAULT_MAX_SAME_RESULTS = 3;
export const DEFAULT_MAX_ERROR_ROUNDS = 5;

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
      /** Said to the model with this call's result: one more such reply ends the turn (LOOP-01, LOOP-07). */
      readonly warning?: string;
    }
  | {
      readonly stop: true;
      readonly toolName: string;
      /**
       * `failures`: one tool failing with one error type; `same_result`: one call giving one
       * result again and again; `error_rounds`: every call of several replies in a row failing.
       */
      readonly kind: 'failures' | 'same_result' | 'error_rounds';
      /** The model replies in a row (or in the turn, for `same_result`) that made it trip. */
      readonly count: number;
      /** For `failures` and `error_rounds`: the (last) error type. */
      readonly errorType?: string;
      /** Plain words for the model and the user: what kept happening and what to do instead. */
      readonly reason: string;
    };

interface Streak {
  errorType: string;
  count: number;
}

const CONTINUE: LoopVerdict = Object.freeze({ stop: false });

/**
 * Ends a turn that goes round in circles (the origin app once made 61 identical failing calls
 * in one turn; RELIABILITY.md B5.5). One breaker per turn; `reset` starts over. Everything is
 * counted per model reply: a reply that makes the same call several times in parallel (a
 * model's duplication, or candidates tried side by side) counts it once. It trips on:
 *
 * - **Failures:** one tool failing with the same error type in N replies in a row (default 3).
 *   Streaks are per tool: another tool succeeding in between does not reset them (the "pair the
 *   failing call with a successful one" evasion, LOOP-06); a success of the same tool, or a
 *   different error type, does. Arguments are not compared.
 * - **Error rounds:** every call of R replies in a row failing, whatever the tools and errors
 *   (default 5), so mutating arguments or alternating tools and error types does not escape
 *   (LOOP-04, LOOP-05).
 * - **The same result:** one call (tool and arguments, keys in any order) giving exactly the same
 *   successful result in M replies of the turn (default 3, at least 2), in any order. A call whose
 *   result changes, such as polling a job that moves or asking the time, never trips (LOOP-08);
 *   one whose result does not change does, polling included (tool-registry.md says why).
 *
 * One reply before a limit, the verdict carries a `warning` for the model, so it can change
 * course before the turn is stopped (LOOP-01's warning; LOOP-07's "warning then halt").
 */
export class ToolLoopBreaker {
  private readonly streaks = new Map<string, Streak>();
  /** Fingerprint (tool, arguments, result) → the replies it appeared in. Hashes: results can be large. */
  private readonly sameResults = new Map<string, number>();
  private errorRounds = 0;
  private readonly maxFailures: number;
  private readonly maxSameResults: number;
  private readonly maxErrorRounds: number;

  constructor(options: { readonly maxConsecutiveFailures?: number; readonly maxSameResults?: number; readonly maxErrorRounds?: number } = {}) {
    const limit = (value: number | undefined, fallback: number, least: number) => Math.max(least, Math.floor(value ?? fallback));
    this.maxFailures = limit(options.maxConsecutiveFailures, DEFAULT_MAX_CONSECUTIVE_FAILURES, 1);
    // One would stop a turn at its first successful call.
    this.maxSameResults = limit(options.maxSameResults, DEFAULT_MAX_SAME_RESULTS, 2);
    this.maxErrorRounds = limit(options.maxErrorRounds, DEFAULT_MAX_ERROR_ROUNDS, 1);
  }

  /** Records one call as a reply of its own. */
  record(outcome: LoopOutcome): LoopVerdict {
    return this.recordReply([outcome])[0] as LoopVerdict;
  }

  /** Records one model reply's calls, in order: one verdict per call. */
  recordReply(outcomes: readonly LoopOutcome[]): LoopVerdict[] {
    const seen = new Set<string>();
    const verdicts = outcomes.map((outcome) => {
      const { toolName, result } = outcome;
      if (result.status === 'error') {
        const key = `${toolName}\n${result.errorType}`;
        if (seen.has(key)) return CONTINUE;
        seen.add(key);
        return this.failure(toolName, result.errorType, result.message);
      }
      this.streaks.delete(toolName);
      const fingerprint = fingerprintOf(toolName, outcome.arguments, result.result);
      if (seen.has(fingerprint)) return CONTINUE;
      seen.add(fingerprint);
      const count = (this.sameResults.get(fingerprint) ?? 0) + 1;
      this.sameResults.set(fingerprint, count);
      return this.sameResult(toolName, count);
    });
    const last = outcomes.at(-1);
    if (last === undefined) return verdicts;
    this.errorRounds = outcomes.every((o) => o.result.status === 'error') ? this.errorRounds + 1 : 0;
    if (this.errorRounds > 0 && last.result.status === 'error' && !verdicts.some((v) => v.stop)) {
      verdicts[verdicts.length - 1] = this.errorRound(last.toolName, last.result.errorType, last.result.message, verdicts.at(-1) as LoopVerdict);
    }
    return verdicts;
  }

  reset(): void {
    this.streaks.clear();
    this.sameResults.clear();
    this.errorRounds = 0;
  }

  private failure(toolName: string, errorType: string, message: string): LoopVerdict {
    const streak = this.streaks.get(toolName);
    const current = streak && streak.errorType === errorType ? streak : { errorType, count: 0 };
    current.count += 1;
    this.streaks.set(toolName, current);
    if (current.count < this.maxFailures) {
      return warnAt(
        current.count,
        this.maxFailures,
        `[OneClaw: '${toolName}' has failed with this error (${errorType}) in ${current.count} replies in a row. If it fails with it once more, this turn stops. Fix what the error says, or try a different approach.]`,
      );
    }
    return {
      stop: true,
      toolName,
      kind: 'failures',
      count: current.count,
      errorType,
      reason:
        `Stopped: '${toolName}' failed ${current.count} times in a row with the same error (${errorType}): ${message} ` +
        'Calling it again the same way will not help. Explain the problem to the user or try a different approach.',
    };
  }

  private sameResult(toolName: string, count: number): LoopVerdict {
    if (count < this.maxSameResults) {
      return warnAt(
        count,
        this.maxSameResults,
        `[OneClaw: this call has given this same result ${count} times in this turn. Calling it again with the same arguments stops this turn. Use the result you have; if you are waiting for something to change, tell the user instead.]`,
      );
    }
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

  /** The reply's last verdict, once the reply is known to be one more whose calls all failed. */
  private errorRound(toolName: string, errorType: string, message: string, own: LoopVerdict): LoopVerdict {
    if (this.errorRounds < this.maxErrorRounds) {
      const round = warnAt(
        this.errorRounds,
        this.maxErrorRounds,
        `[OneClaw: every tool call of your last ${this.errorRounds} replies failed. If every call of the next one fails too, this turn stops. Fix what the errors say, or answer the user.]`,
      );
      const warnings = [own, round].map((v) => (v.stop ? undefined : v.warning)).filter((w) => w !== undefined);
      return warnings.length === 0 ? CONTINUE : { stop: false, warning: warnings.join('\n') };
    }
    return {
      stop: true,
      toolName,
      kind: 'error_rounds',
      count: this.errorRounds,
      errorType,
      reason:
        `Stopped: every tool call failed in ${this.errorRounds} model replies in a row (the last: '${toolName}', ${errorType}: ${message}) ` +
        'Explain the problem to the user or try a different approach.',
    };
  }
}

/** The warning one reply before `limit`; none earlier, and none for a first occurrence (a limit of 2 stops without one). */
function warnAt(count: number, limit: number, warning: string): LoopVerdict {
  return count === limit - 1 && count >= 2 ? { stop: false, warning } : CONTINUE;
}

function fingerprintOf(toolName: string, args: LoopOutcome['arguments'], result: string): string {
  return createHash('sha256')
    .update(`${toolName}\n${canonicalJson(args ?? {})}\n`)
    .update(result)
    .digest('base64');
}

import type { ReplyAdjustments } from '../events/session-events';

/** The tool name recorded for a call the model sent without one; no tool has it, so it is answered `tool_not_found`. */
export const MISSING_TOOL_NAME = 'missing_tool_name';

export interface CallNaming {
  readonly callId: string;
  readonly toolName: string;
}

export interface NamedCalls<T extends CallNaming> {
  /** The calls in the model's order, each with an id of its own and a tool name. */
  readonly calls: T[];
  readonly renamedCalls: NonNullable<ReplyAdjustments['renamedCalls']>;
  readonly unnamedCalls: string[];
}

/**
 * Gives every call of one model reply its own id, so each gets exactly one result: the first
 * call keeps a repeated id, later ones become `<id>_2`, `<id>_3`...; a missing id becomes
 * `<fallbackPrefix>_<n>` (n = position in the reply, from 1). Ids in `taken` (calls still
 * waiting for a result) count as used. Deterministic, and the renames are recorded with the
 * reply, so replay rebuilds the same ids. Letters, digits, `_` and `-` only are added, which
 * every provider accepts back as a call id.
 */
export function uniqueCallIds<T extends CallNaming>(calls: readonly T[], taken: ReadonlySet<string>, fallbackPrefix: string): NamedCalls<T> {
  const used = new Set(taken);
  const renamedCalls: { callId: string; originalCallId: string }[] = [];
  const unnamedCalls: string[] = [];
  const named = calls.map((call, index) => {
    const original = typeof call.callId === 'string' ? call.callId.trim() : '';
    const base = original === '' ? `${fallbackPrefix}_${index + 1}` : original;
    let callId = base;
    for (let n = 2; used.has(callId); n++) callId = `${base}_${n}`;
    used.add(callId);
    if (callId !== call.callId) renamedCalls.push({ callId, originalCallId: typeof call.callId === 'string' ? call.callId : '' });
    const hasName = typeof call.toolName === 'string' && call.toolName.trim() !== '';
    if (!hasName) unnamedCalls.push(callId);
    return { ...call, callId, toolName: hasName ? call.toolName : MISSING_TOOL_NAME };
  });
  return { calls: named, renamedCalls, unnamedCalls };
}

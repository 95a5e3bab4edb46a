import type { ReplyAdjustments } from '../events/session-events';

/** The tool name recorded for a call the model sent without one; no tool has it, so it is answered `tool_not_found`. */
export const MISSING_TOOL_NAME = 'missing_tool_name';

/**
 * The tool name recorded for a call whose name is longer than any tool's can be; no tool has it,
 * so it is answered `tool_not_found`. A fixed name rather than the name cut short: a cut name
 * could still be one providers refuse to be sent back, and it could, at exactly the length of a
 * registered name, run a tool the model did not name.
 */
export const LONG_TOOL_NAME = 'tool_name_too_long';

/**
 * Longest tool name kept as the model sent it: a registered tool's name is at most 64 characters
 * (`ToolDefinition.name`), so a longer one names no tool, and one of megabytes would not fit the
 * record (the store's append limit), failing the turn.
 */
export const MAX_TOOL_NAME_CHARS = 64;

/**
 * Longest call id kept as the model sent it. Providers' own ids are 20 to 50 characters
 * (`toolu_...`, `call_...`, vLLM's `chatcmpl-tool-<32 hex>`); a longer one comes from a broken
 * server or a model making ids up, and one of megabytes would not fit the record. It is replaced
 * like a missing id. Ours add at most a `_<n>` suffix to it.
 */
export const MAX_CALL_ID_CHARS = 128;

export interface CallNaming {
  readonly callId: string;
  readonly toolName: string;
}

export interface NamedCalls<T extends CallNaming> {
  /** The calls in the model's order, each with an id of its own and a tool name. */
  readonly calls: T[];
  readonly renamedCalls: NonNullable<ReplyAdjustments['renamedCalls']>;
  readonly unnamedCalls: string[];
  readonly longToolNames: NonNullable<ReplyAdjustments['longToolNames']>;
}

/**
 * Gives every call of one model reply its own id, so each gets exactly one result: the first
 * call keeps a repeated id, later ones become `<id>_2`, `<id>_3`...; a missing id, or one longer
 * than `MAX_CALL_ID_CHARS`, becomes `<fallbackPrefix>_<n>` (n = position in the reply, from 1).
 * Ids in `taken` (calls still waiting for a result) count as used. Deterministic, and the renames
 * are recorded with the reply, so replay rebuilds the same ids. Letters, digits, `_` and `-`
 * only are added, which every provider accepts back as a call id. A missing tool name is recorded
 * as `MISSING_TOOL_NAME`, one longer than `MAX_TOOL_NAME_CHARS` as `LONG_TOOL_NAME`; what is
 * recorded of an over-long id or name (in the renames, in `longToolNames`) is its start only.
 */
export function uniqueCallIds<T extends CallNaming>(calls: readonly T[], taken: ReadonlySet<string>, fallbackPrefix: string): NamedCalls<T> {
  const used = new Set(taken);
  const renamedCalls: { callId: string; originalCallId: string; originalCallIdChars?: number }[] = [];
  const unnamedCalls: string[] = [];
  const longToolNames: { callId: string; start: string; chars: number }[] = [];
  const named = calls.map((call, index) => {
    const sent = typeof call.callId === 'string' ? call.callId : '';
    const original = sent.trim();
    const tooLong = original.length > MAX_CALL_ID_CHARS;
    const base = original === '' || tooLong ? `${fallbackPrefix}_${index + 1}` : original;
    let callId = base;
    for (let n = 2; used.has(callId); n++) callId = `${base}_${n}`;
    used.add(callId);
    if (tooLong) renamedCalls.push({ callId, originalCallId: startOf(sent, MAX_CALL_ID_CHARS), originalCallIdChars: sent.length });
    else if (callId !== call.callId) renamedCalls.push({ callId, originalCallId: sent });
    const hasName = typeof call.toolName === 'string' && call.toolName.trim() !== '';
    if (!hasName) {
      unnamedCalls.push(callId);
      return { ...call, callId, toolName: MISSING_TOOL_NAME };
    }
    if (call.toolName.length > MAX_TOOL_NAME_CHARS) {
      longToolNames.push({ callId, start: startOf(call.toolName, MAX_TOOL_NAME_CHARS), chars: call.toolName.length });
      return { ...call, callId, toolName: LONG_TOOL_NAME };
    }
    return { ...call, callId };
  });
  return { calls: named, renamedCalls, unnamedCalls, longToolNames };
}

/** The first `max` characters, without half of a surrogate pair at the end. */
function startOf(text: string, max: number): string {
  const start = text.slice(0, max);
  const last = start.charCodeAt(start.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? start.slice(0, -1) : start;
}

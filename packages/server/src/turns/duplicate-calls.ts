import { canonicalJson, type DuplicateCall } from '@oneclaw/core';
import type { ToolCallOutcome } from '@oneclaw/tool-registry';

interface ReplyCall {
  readonly callId: string;
  readonly toolName: string;
  /** As the model sent them (before any cut for the record). */
  readonly arguments: unknown;
}

/**
 * The calls of one reply that repeat an earlier call of the same reply: the same tool with the
 * same arguments as values (key order aside). Models sometimes send one call twice among
 * parallel calls; run twice, a `gmail_send` sends twice. Each repeat is answered with the first
 * call's result instead (`withRepeats`), and the reply records which calls were repeats.
 */
export function findDuplicateCalls(calls: readonly ReplyCall[]): DuplicateCall[] {
  // Most replies make one call: no arguments to serialize on the turn's hot path.
  if (calls.length < 2) return [];
  const first = new Map<string, string>();
  const duplicates: DuplicateCall[] = [];
  for (const call of calls) {
    const key = keyOf(call);
    if (key === undefined) continue;
    const sameAs = first.get(key);
    if (sameAs === undefined) first.set(key, call.callId);
    else duplicates.push({ callId: call.callId, sameAs });
  }
  return duplicates;
}

/**
 * Undefined for arguments that cannot be compared: JSON.parse takes any depth, canonicalJson
 * recurses and overflows the stack on a few thousand nested arrays. Such a call is taken as
 * unique (the engine then refuses arguments that are not an object, as it always did).
 */
function keyOf(call: ReplyCall): string | undefined {
  try {
    return `${call.toolName}\n${canonicalJson(call.arguments ?? null)}`;
  } catch {
    return undefined;
  }
}

/**
 * The outcomes of every call of the reply, in the reply's order: those that ran, and for each
 * repeat the outcome of the call it repeats, under its own id, with a note the model reads.
 */
export function withRepeats(callIds: readonly string[], ran: readonly ToolCallOutcome[], duplicates: readonly DuplicateCall[]): ToolCallOutcome[] {
  const byId = new Map(ran.map((outcome) => [outcome.callId, outcome]));
  const repeats = new Map(duplicates.map((d) => [d.callId, d.sameAs]));
  return callIds.map((callId) => {
    const sameAs = repeats.get(callId);
    const outcome = byId.get(sameAs ?? callId);
    if (!outcome) throw new Error(`No outcome for tool call ${callId}.`);
    if (sameAs === undefined) return outcome;
    const note = `\n\n[OneClaw: this call repeats ${sameAs} of the same reply (same tool, same arguments), so it was not run again; this is the result of ${sameAs}.]`;
    const result =
      outcome.result.status === 'success' ? { ...outcome.result, result: outcome.result.result + note } : { ...outcome.result, message: outcome.result.message + note };
    return { ...outcome, callId, result, durationMs: 0 };
  });
}

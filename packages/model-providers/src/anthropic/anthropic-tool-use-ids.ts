/** What the Messages API holds `tool_use.id` (and so `tool_result.tool_use_id`) to. */
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * The tool_use ids of one Anthropic request. The API refuses (400) a request in which two tool_use
 * blocks share an id ("tool_use ids must be unique") or one falls outside `^[a-zA-Z0-9_-]+$`, on
 * every later turn. The recorded ids are unique only among the calls still waiting for a result
 * (core uniqueCallIds), so the same id comes back in later rounds: OpenAI-compatible servers that
 * send none get `call_r<round>_<n>`, some send `call_0` every round, Gemini's ids repeat by design;
 * and other servers send ids such as `functions.get_time:0` (Kimi, OpenRouter). A session that
 * switched to Anthropic would be stuck. So each id is mapped, deterministically from the messages
 * before it: kept when it is valid and unseen, else its other characters become `_` and `_2`,
 * `_3`... is added until it is unseen. A tool_result takes the id its call got in the assistant
 * message right before it (the API pairs them there).
 */
export class AnthropicToolUseIds {
  private readonly used = new Set<string>();
  /** The ids sent for the calls of the last assistant message, by recorded id, in order. */
  private answering = new Map<string, string[]>();

  /** A new assistant message begins: later results answer its calls. */
  startMessage(): void {
    this.answering = new Map();
  }

  toolUse(callId: string): string {
    const base = wellFormed(callId);
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}_${n}`;
    this.used.add(id);
    const ids = this.answering.get(callId);
    if (ids) ids.push(id);
    else this.answering.set(callId, [id]);
    return id;
  }

  /** A result that answers no call of that message is refused by the API whatever its id; it keeps a well-formed one. */
  toolResult(callId: string): string {
    return this.answering.get(callId)?.shift() ?? wellFormed(callId);
  }
}

function wellFormed(callId: string): string {
  if (TOOL_USE_ID.test(callId)) return callId;
  return callId.replace(/[^a-zA-Z0-9_-]/g, '_') || 'call';
}

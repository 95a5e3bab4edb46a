import type { ToolContext } from '@oneclaw/tool-registry';
import type { ChangeOrigin } from '../../../config/config-repository';

/**
 * Changes made by a tool call are correlated with it (`<sessionId>/<callId>`) in the `config`
 * stream, and are the model's: rules that keep keys with the user's choices apply to them.
 */
export function toolOrigin(context: ToolContext): ChangeOrigin {
  return { correlationId: `${context.sessionId}/${context.callId}`, requestedBy: 'model' };
}

/** Tool answers that list things are JSON: unambiguous ids the model can pass back. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** An empty string clears an optional field (update_agent); absent leaves it as it is. */
export function clearable(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value.trim() === '' ? null : value;
}

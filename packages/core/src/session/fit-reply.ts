import type { ReplyCut, ToolCall } from '../events/session-events';
import { fitText, jsonBytes, utf8Bytes } from './fit-text';

/** The parts of an assistant message that can be large. */
export interface ReplyParts {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly providerMetadata?: { readonly provider: string; readonly data: unknown };
  /** Shown to the user only, never sent back to the model: the first thing cut. */
  readonly reasoning?: string;
}

export interface FittedReply {
  readonly reply: ReplyParts;
  /** Undefined when the reply fitted as it was. */
  readonly cut?: ReplyCut;
}

/** What recorded arguments become when they are too large to keep; providers need an object back. */
export function cutArgumentsMarker(bytes: number): Readonly<Record<string, unknown>> {
  return { _cut: `These arguments (${bytes} bytes) were over the record size limit and are not kept; the tool ran with them in full.` };
}

/**
 * Makes a model reply fit one event of at most `limitBytes` of JSON (the store refuses larger
 * appends), instead of failing the turn. In order, until it fits: the reasoning is cut (with a
 * note), as it is there for the reader only; the largest tool-call arguments are replaced by a
 * marker while arguments take more than half the budget; provider state is dropped while it
 * takes more than a quarter; the text is cut, with a note saying so;
 * then every argument and the provider state go. The text's start, the calls and their ids
 * are always kept: the tools run with the full arguments and every call gets its result.
 */
export function fitReply(reply: ReplyParts, limitBytes: number): FittedReply {
  if (jsonBytes(reply) <= limitBytes) return { reply };
  const calls = [...reply.toolCalls];
  const argumentsCut: string[] = [];
  const cutArguments = (index: number): void => {
    const call = calls[index] as ToolCall;
    if (argumentsCut.includes(call.callId)) return;
    calls[index] = { ...call, arguments: cutArgumentsMarker(jsonBytes(call.arguments)) };
    argumentsCut.push(call.callId);
  };
  const bySize = calls.map((c, i) => ({ i, bytes: jsonBytes(c.arguments) })).sort((a, b) => b.bytes - a.bytes);
  let providerMetadata = reply.providerMetadata;
  let text = reply.text;
  let reasoning = reply.reasoning ?? '';
  const build = (): ReplyParts => ({ text, toolCalls: calls, ...(providerMetadata ? { providerMetadata } : {}), ...(reasoning ? { reasoning } : {}) });
  // The reasoning gets what the rest leaves; nothing when the rest alone is over the limit.
  const reasoningRoom = limitBytes - jsonBytes({ ...build(), reasoning: '' });
  if (reasoning && jsonBytes(reasoning) > reasoningRoom) reasoning = fitText(reasoning, reasoningRoom, 'reasoning');
  if (jsonBytes(build()) <= limitBytes) return { reply: build(), cut: cutOf(reply, build(), limitBytes, []) };

  for (const { i } of bySize) {
    if (jsonBytes(calls) <= limitBytes / 2) break;
    cutArguments(i);
  }
  if (providerMetadata && jsonBytes(providerMetadata) > limitBytes / 4) providerMetadata = undefined;

  if (jsonBytes(build()) > limitBytes) text = fitText(reply.text, limitBytes - jsonBytes({ ...build(), text: '' }), 'reply');
  if (jsonBytes(build()) > limitBytes) {
    calls.forEach((_, i) => cutArguments(i));
    providerMetadata = undefined;
    text = fitText(reply.text, limitBytes - jsonBytes({ ...build(), text: '' }), 'reply');
  }
  return { reply: build(), cut: cutOf(reply, build(), limitBytes, argumentsCut) };
}

function cutOf(original: ReplyParts, kept: ReplyParts, limitBytes: number, argumentsCut: readonly string[]): ReplyCut {
  return {
    limitBytes,
    textBytes: utf8Bytes(original.text),
    keptTextBytes: utf8Bytes(kept.text),
    argumentsCut,
    providerMetadataDropped: original.providerMetadata !== undefined && kept.providerMetadata === undefined,
    ...(original.reasoning !== undefined ? { reasoningBytes: utf8Bytes(original.reasoning), keptReasoningBytes: utf8Bytes(kept.reasoning ?? '') } : {}),
  };
}

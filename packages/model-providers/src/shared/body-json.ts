import type { ChatMessage } from '../model-provider';

/**
 * Request bodies as JSON text, built from JSON kept from the requests before. A session's chat
 * messages are the same objects from one request to the next (the server converts each recorded
 * message once, and a recorded message never changes), so a conversation's JSON is reused when
 * the next request starts with the same messages, and a tool list's JSON is kept by the list.
 * Serializing the whole body on every request was 7% of a loaded server's main thread
 * (benchmarks.md, F5).
 */

/** Stand for the messages and the tools in a body's JSON until `fillJson` puts their JSON there. */
export const MESSAGES_SLOT = '\u0000oneclaw-messages\u0000';
export const TOOLS_SLOT = '\u0000oneclaw-tools\u0000';

/**
 * `JSON.stringify(template)` with each slot's JSON string replaced by the given JSON pieces,
 * joined once into one flat string (no copy of the conversation per piece). `fills` are in the
 * order their slots appear in the template, and only fields the caller fixes (numbers, `true`,
 * another slot) may follow a slot: each slot is cut at its last occurrence, so a field before it
 * (the model name, a system prompt) may hold anything, the slot's own text included.
 */
export function fillJson(template: Record<string, unknown>, fills: readonly (readonly [slot: string, pieces: readonly string[]])[]): string {
  let before = JSON.stringify(template);
  const after: string[] = [];
  for (let i = fills.length - 1; i >= 0; i--) {
    const [slot, pieces] = fills[i] as (typeof fills)[number];
    const marker = JSON.stringify(slot);
    const at = before.lastIndexOf(marker);
    if (at < 0) throw new Error(`fillJson: the template has no ${JSON.stringify(slot)} slot`);
    after.unshift(...pieces, before.slice(at + marker.length));
    before = before.slice(0, at);
  }
  return [before, ...after].join('');
}

/** Pieces of a JSON array of these JSON items (empty strings are no items), for `fillJson`. */
export function jsonArray(items: readonly string[]): string[] {
  const pieces = ['['];
  for (const item of items) {
    if (item === '') continue;
    if (pieces.length > 1) pieces.push(',');
    pieces.push(item);
  }
  pieces.push(']');
  return pieces;
}

/** JSON kept by object identity: for values never changed in place, such as a tool list. */
class JsonByObject {
  private readonly kept = new WeakMap<object, string>();

  of(value: object): string {
    let json = this.kept.get(value);
    if (json === undefined) this.kept.set(value, (json = JSON.stringify(value)));
    return json;
  }
}

/**
 * A provider's message list for the chat messages from some index on: its entries, and the index
 * of the first chat message in the last entry. An entry may hold several chat messages (Anthropic
 * and Gemini put consecutive tool results in one), but only the last entry can take more of them.
 * Converting from an entry's start on must give exactly the entries the whole conversion has from
 * there: the converter may read the earlier messages (Anthropic's tool_use ids depend on the ids
 * before them), but nothing may depend on which message is last (such as a cache marker on the
 * last message only), else the kept JSON goes stale.
 */
export interface ConvertedMessages {
  readonly entries: readonly unknown[];
  /** Index in the messages of the first chat message of the last entry (any index when there are no entries). */
  readonly lastStart: number;
}

/** The entries of `messages` from `from` on; the messages before it are context only. */
export type ConvertMessages = (messages: readonly ChatMessage[], from: number) => ConvertedMessages;

interface Kept {
  readonly messages: readonly ChatMessage[];
  /** The JSON of the entries before the last one (which a later message may still go into), joined. */
  readonly closed: string;
  /** Index of the first chat message of the last entry. */
  readonly openFrom: number;
}

/**
 * A conversation's message list as JSON items, by its first message. A request that goes on from
 * the last one (the same message objects, then more) converts and serializes only from the last
 * entry on; any other request (a retry, a cut) serializes its messages anew. A conversation with
 * attached files (loaded into new message objects for every request) keeps nothing.
 * Weak: a conversation no one holds any more takes its JSON with it.
 */
export class ConversationJson {
  private readonly kept = new WeakMap<ChatMessage, Kept>();

  constructor(private readonly convert: ConvertMessages) {}

  /** The JSON items of `convert(messages).entries`, for `jsonArray` (at most two strings). */
  of(messages: readonly ChatMessage[]): string[] {
    const first = messages[0];
    if (first === undefined) return [];
    const kept = this.kept.get(first);
    const goesOn = kept !== undefined && kept.messages.length <= messages.length && kept.messages.every((m, i) => m === messages[i]);
    const from = goesOn ? kept.openFrom : 0;
    const { entries, lastStart } = this.convert(messages, from);
    const items = entries.map((entry) => JSON.stringify(entry));
    const open = items.pop();
    // Kept flat: the next request copies it once instead of walking a list of pieces.
    const closed = (goesOn && kept.closed !== '' ? [kept.closed, ...items] : items).join(',');
    const openFrom = open === undefined ? from : lastStart;
    // Attached files are loaded into new message objects for every request, so a conversation
    // holding them never goes on from its last request: keeping its JSON would only keep the
    // files' base64 in memory. (Messages kept before carry none: they were kept.)
    if (carriesFileData(messages, goesOn ? kept.messages.length : 0)) this.kept.delete(first);
    // A copy: a caller may reuse its array for the next request.
    else this.kept.set(first, { messages: messages.slice(), closed, openFrom });
    return open === undefined ? [closed] : [closed, open];
  }
}

/** Whether a message from `from` on has files loaded for the request (bytes, or marked missing): such a message is a new object every time. */
function carriesFileData(messages: readonly ChatMessage[], from: number): boolean {
  for (let i = from; i < messages.length; i++) {
    const message = messages[i] as ChatMessage;
    if (message.role === 'user' && (message.attachments ?? []).some((a) => a.data !== undefined || a.missing === true)) return true;
  }
  return false;
}

/**
 * A provider's request body as JSON text, from kept JSON: `around` builds the body with slots
 * for the messages and the tools (as `buildBody` does with the real values), `head` is JSON of
 * messages that go before the conversation (OpenAI's system message).
 */
export class BodyJson {
  private readonly conversation: ConversationJson;
  private readonly tools = new JsonByObject();

  constructor(convert: ConvertMessages) {
    this.conversation = new ConversationJson(convert);
  }

  of(messages: readonly ChatMessage[], tools: object | undefined, around: (messages: unknown, tools: unknown) => Record<string, unknown>, head: readonly string[] = []): string {
    return fillJson(around(MESSAGES_SLOT, tools ? TOOLS_SLOT : undefined), [
      [MESSAGES_SLOT, jsonArray([...head, ...this.conversation.of(messages)])],
      ...(tools ? [[TOOLS_SLOT, [this.tools.of(tools)]] as const] : []),
    ]);
  }
}

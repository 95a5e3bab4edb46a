/** What a fake model server answers to one request. Replies are served in script order. */
export type FakeReply = FakeMessageReply | FakeErrorReply | FakeMalformedReply;

export interface FakeToolCall {
  readonly name: string;
  readonly arguments: object;
  /** The call id to send (OpenAI, Anthropic; '' sends an empty one); a unique one per call otherwise. */
  readonly callId?: string;
  /** OpenAI, Anthropic: the arguments' JSON text to stream as is, instead of `arguments` (what no object serializes to: broken or very deep JSON). */
  readonly argumentsText?: string;
}

export interface FakeUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A normal streamed reply. All fields are optional: `{}` is an empty reply that still finishes. */
export interface FakeMessageReply {
  /** Streamed as several deltas: a string is cut after each space, an array gives the exact pieces. */
  readonly text?: string | readonly string[];
  /** Arguments are streamed in several pieces where the wire format allows it (OpenAI, Anthropic). */
  readonly toolCalls?: readonly FakeToolCall[];
  /** Default `{ inputTokens: 11, outputTokens: 7 }`. */
  readonly usage?: FakeUsage;
  /** Usage computed from the request it answers (wins over `usage`): a window that fills as the conversation grows. */
  readonly usageFromRequest?: (body: Readonly<Record<string, unknown>>) => FakeUsage;
  /**
   * Reasoning streamed before the text, in each provider's own form: Anthropic a signed thinking
   * block (signature `fake-thinking-signature-<n>`), Gemini `thought: true` parts, OpenAI
   * `reasoning_content` deltas (or `reasoningField`). Cut into pieces like `text`.
   */
  readonly thinking?: string | readonly string[];
  /** OpenAI only: the delta field that carries `thinking`; default `reasoning_content` (DeepSeek), `reasoning` is OpenRouter's. */
  readonly reasoningField?: 'reasoning_content' | 'reasoning';
  /**
   * Holds the reply (no status, no byte) until this settles: a test looks at what the user sees
   * while the model is silent (the "thinking" state), then lets the reply go. Never released, it
   * behaves like a provider that does not answer; `close()` ends it.
   */
  readonly waitFor?: Promise<unknown>;
  /** Gemini only: sent on the first functionCall part, or on the final text part when there are no calls. */
  readonly thoughtSignature?: string;
  /** Stream the content, then never finish and keep the connection open (cancel and timeout tests). */
  readonly hang?: boolean;
  /** Stream the content, then close the connection without finishing (a dropped reply). */
  readonly truncated?: boolean;
}

/** An HTTP error answer. Without `body`, the provider's own error JSON shape is sent with `message`. */
export interface FakeErrorReply {
  readonly error: {
    readonly status: number;
    readonly body?: unknown;
    readonly headers?: Readonly<Record<string, string>>;
    readonly message?: string;
  };
}

/** A 200 stream whose data is not valid JSON, then the connection closes. */
export interface FakeMalformedReply {
  readonly malformed: true;
}

/** A gate for `waitFor`: `release()` lets the held reply go. */
export interface FakeGate {
  readonly opened: Promise<void>;
  release(): void;
}

export function fakeGate(): FakeGate {
  let release = () => {};
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release: () => release() };
}

/** Shorthands for common replies. */
export const fakeReply = {
  text: (text: string | readonly string[], usage?: FakeUsage): FakeMessageReply => ({ text, ...(usage ? { usage } : {}) }),
  toolCall: (name: string, args: object = {}, text?: string): FakeMessageReply => ({ toolCalls: [{ name, arguments: args }], ...(text ? { text } : {}) }),
  toolCalls: (...calls: FakeToolCall[]): FakeMessageReply => ({ toolCalls: calls }),
  error: (status: number, options: Omit<FakeErrorReply['error'], 'status'> = {}): FakeErrorReply => ({ error: { status, ...options } }),
  rateLimited: (retryAfterSeconds = 0): FakeErrorReply => ({ error: { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } } }),
  malformed: (): FakeMalformedReply => ({ malformed: true }),
  hang: (text?: string | readonly string[]): FakeMessageReply => ({ hang: true, ...(text !== undefined ? { text } : {}) }),
};

export const DEFAULT_FAKE_USAGE: FakeUsage = { inputTokens: 11, outputTokens: 7 };

/** "Hello brave world" -> ["Hello ", "brave ", "world"], so one reply arrives as several deltas. */
export function textPieces(text: string | readonly string[] | undefined): string[] {
  if (text === undefined) return [];
  if (typeof text !== 'string') return [...text];
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Cuts JSON text (`text`, else `value` serialized) into three pieces so clients must accumulate tool arguments. */
export function jsonPieces(value: object, text?: string): string[] {
  const json = text ?? JSON.stringify(value);
  if (json.length < 3) return [json];
  const third = Math.ceil(json.length / 3);
  return [json.slice(0, third), json.slice(third, 2 * third), json.slice(2 * third)].filter((piece) => piece !== '');
}

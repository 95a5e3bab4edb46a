import type { IncomingHttpHeaders } from 'node:http';
import type { FakeMessageReply } from './fake-reply';

export interface WireContext {
  /** 1-based number of the request on this server, used in generated ids. */
  readonly requestNumber: number;
  readonly model: string;
  readonly body: Record<string, unknown>;
}

/**
 * A reply as SSE frames: `content` carries the text and tool calls, `finish` the stop reason,
 * usage and end markers. A hanging reply sends only `content`.
 */
export interface StreamPlan {
  readonly content: readonly string[];
  readonly finish: readonly string[];
}

/** One provider's wire format, as the fake server speaks it. */
export interface FakeWire {
  /** Appended to the server origin to form the base URL handed to the provider. */
  readonly basePath: string;
  /** The model named by the request, or undefined when the method or path is not this API's. */
  route(method: string, url: URL, body: Record<string, unknown>): { readonly model: string } | undefined;
  authorized(headers: IncomingHttpHeaders, apiKey: string): boolean;
  /** The provider's own error JSON. */
  errorBody(status: number, message: string): unknown;
  stream(reply: FakeMessageReply, context: WireContext): StreamPlan;
  /**
   * Why the real API would refuse this request body with 400 (its own message), or undefined.
   * Checked after the key, before a reply is taken from the script.
   */
  refusal?(body: Record<string, unknown>): string | undefined;
  /** Frames of a 200 stream whose data cannot be parsed. */
  malformed(context: WireContext): readonly string[];
}

import { OneClawError } from '@oneclaw/core';

/**
 * Caps on the schema a provider is sent, once every local `$ref` is inlined. A `$ref` may be used
 * many times, and definitions may use each other, so a small schema can stand for an enormous one:
 * 18 definitions of 1.7 KB, each using the next twice, inline to 2^18 subschemas, which blocked
 * the event loop for seconds at every registration. No real tool needs anywhere near these;
 * a schema that large could not be sent to a model anyway (it would cost hundreds of thousands of
 * tokens per request).
 */
export const MAX_INLINED_SCHEMA_NODES = 10_000;
/** How deep subschemas may nest once inlined; walking deeper would risk the stack as well. */
export const MAX_INLINED_SCHEMA_DEPTH = 100;

/** A parameters schema past one of the caps above: the tool is refused, not sent in part. */
export class SchemaTooLargeError extends OneClawError {
  declare readonly code: 'schema_too_large';

  constructor(reason: string) {
    super('schema_too_large', reason);
  }
}

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { OneClawError } from '@oneclaw/core';
import type { IncomingMessage } from 'node:http';

/**
 * The longest Idempotency-Key the server takes. Command ids embed the key as it is (so an audit
 * shows the client's key), and event ids are at most 200 characters: 100 leaves room for the
 * longest session id (64) and the command's own part. A UUID (36) fits with room to spare.
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 100;

/**
 * The Idempotency-Key a request brings, or undefined when it brings none. A blank header is no
 * key: taken as one, every blank request would share one command id, so a second clear or load
 * would be answered as a retry of the first and silently record nothing.
 */
export function idempotencyKeyOf(header: string | readonly string[] | undefined): string | undefined {
  const key = (Array.isArray(header) ? header.join(',') : (header as string | undefined))?.trim();
  if (!key) return undefined;
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new OneClawError(
      'invalid_idempotency_key',
      `The Idempotency-Key header is ${key.length} characters long; it can be at most ${MAX_IDEMPOTENCY_KEY_LENGTH}. Send a shorter unique key (a UUID is fine), or none.`,
      { maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
    );
  }
  return key;
}

/** The route parameter every mutating route reads its Idempotency-Key through (idempotencyKeyOf). */
export const IdempotencyKey = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined =>
  idempotencyKeyOf(context.switchToHttp().getRequest<IncomingMessage>().headers['idempotency-key']),
);

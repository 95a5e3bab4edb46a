/**
 * A fresh Idempotency-Key: 128 random bits as hex. `crypto.randomUUID` would do, but it exists
 * only in secure contexts, and a phone on a LAN reaches the server over plain http;
 * `getRandomValues` works everywhere. The server derives the recorded ids from the key, so a
 * request sent again with the same key is recorded once (docs/api.md).
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

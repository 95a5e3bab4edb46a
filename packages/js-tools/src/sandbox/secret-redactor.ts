export const REDACTED = '[redacted]';

/** Shorter values are too likely to occur by chance ("1", "true") to be replaced everywhere. */
const MIN_SECRET_LENGTH = 4;

/**
 * Replaces every occurrence of the given secret values (the call's `_env` values) in a text, so a
 * tool that echoes a secret, or an error message that quotes one, never carries it into a result,
 * a log line or an event (SEC-03, SEC-04).
 */
export function secretRedactor(secrets: Iterable<string>): (text: string) => string {
  const values = [...new Set([...secrets].filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  const pattern = new RegExp(values.map(escapeRegExp).join('|'), 'g');
  return (text) => text.replace(pattern, REDACTED);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

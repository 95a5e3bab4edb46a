export const REDACTED = '[redacted]';

/**
 * Shorter values are too likely to occur by chance ("1", "true", "yes") to be replaced everywhere:
 * they would turn ordinary words into `[redacted]`. docs/js-tools.md says so.
 */
const MIN_SECRET_LENGTH = 4;

/** Replaces every occurrence of the call's secrets in a text, and cuts text without keeping part of one. */
export interface SecretRedactor {
  (text: string): string;
  /**
   * How far past a cut a secret that starts before it can reach: the longest secret's length,
   * JSON-escaped forms included (0 without secrets). Read this many characters more than you keep before calling `cut`.
   */
  readonly reach: number;
  /**
   * The first `max` characters of a longer text, redacted. `text` must hold the first
   * `max + reach` characters of it (or all of it, if shorter), so that every secret starting
   * before the cut is whole in it. A secret that spans the cut is left out whole (the cut moves
   * back to where it starts): redacting after cutting would keep its start, which matches nothing.
   */
  cut(text: string, max: number): string;
}

/**
 * Replaces every occurrence of the given secret values (the call's `_env` values) in a text, so a
 * tool that echoes a secret, or an error message that quotes one, never carries it into a result,
 * a log line or an event (SEC-03, SEC-04). Each value is matched as it is and as JSON escapes it:
 * an object result or a console line of an object is the guest's JSON.stringify, where a value
 * with a quote, a backslash or a line break (a PEM key) no longer reads as itself.
 */
export function secretRedactor(secrets: Iterable<string>): SecretRedactor {
  const forms = [...secrets].filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH).flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  // Longest first: when one secret is a prefix of another, the whole longer one must go.
  const values = [...new Set(forms)].sort((a, b) => b.length - a.length);
  if (values.length === 0) return Object.assign((text: string) => text, { reach: 0, cut: (text: string, max: number) => text.slice(0, max) });
  const pattern = new RegExp(values.map(escapeRegExp).join('|'), 'g');
  const redact = (text: string) => text.replace(pattern, REDACTED);
  const cut = (text: string, max: number) => {
    let end = max;
    for (const match of text.matchAll(pattern)) {
      if (match.index >= max) break;
      if (match.index + match[0].length > max) {
        end = match.index;
        break;
      }
    }
    return redact(text.slice(0, end));
  };
  return Object.assign(redact, { reach: values[0]?.length ?? 0, cut });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What a cut text was, named in its note. */
export type CutTextKind = 'reply' | 'reasoning' | 'tool result';

/**
 * The longest start of `text` that, with a note saying it was cut, takes at most `budget` bytes
 * as a JSON string (what the store counts; control characters take 6 bytes each there). Never
 * splits a surrogate pair. Empty when not even the note fits. The text as it is when it fits.
 */
export function fitText(text: string, budget: number, what: CutTextKind): string {
  if (jsonBytes(text) <= budget) return text;
  const note = (kept: number) => `\n\n[OneClaw: the ${what} was cut here to fit the record size limit; ${kept} of ${utf8Bytes(text)} bytes kept.]`;
  const fits = (end: number) => jsonBytes(text.slice(0, end) + note(utf8Bytes(text.slice(0, end)))) <= budget;
  if (!fits(0)) return '';
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  let end = low;
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  const kept = text.slice(0, end);
  return kept + note(utf8Bytes(kept));
}

const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/** Bytes of `value` as JSON in UTF-8. */
export function jsonBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value) ?? '');
}

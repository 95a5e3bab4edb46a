export const DEFAULT_MAX_RESULT_CHARS = 30_000;

/**
 * Cuts text to at most `max` characters, ending with a marker the model and the user can see,
 * so a cut result is never mistaken for the whole.
 */
export function truncateText(text: string, max = DEFAULT_MAX_RESULT_CHARS): string {
  if (text.length <= max) return text;
  const marker = (kept: number) => `\n\n[truncated: showing the first ${kept} of ${text.length} characters]`;
  let keep = Math.max(0, max - marker(max).length);
  // Never split a surrogate pair: half an emoji is not text.
  const code = text.charCodeAt(keep - 1);
  if (code >= 0xd800 && code <= 0xdbff) keep -= 1;
  return `${text.slice(0, keep)}${marker(keep)}`;
}

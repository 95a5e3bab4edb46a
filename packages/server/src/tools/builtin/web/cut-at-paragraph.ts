/**
 * Text cut to at most `maxLength` characters at the last paragraph break before the limit (or a
 * line break, or a space, when the text has no paragraph break in its second half), followed by a
 * note that says it was cut and how long the whole text is. Text within the limit is returned as is.
 */
export function cutAtParagraph(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const end = cutPoint(text, maxLength);
  const shown = text.slice(0, end).trimEnd();
  return (
    `${shown}\n\n[Cut at ${shown.length} of ${text.length} characters: the full text is ${text.length} characters long. ` +
    'Pass a larger max_length to read more.]'
  );
}

function cutPoint(text: string, maxLength: number): number {
  // A boundary in the first half would throw away too much of what fits; cut mid-paragraph then.
  const floor = Math.floor(maxLength / 2);
  for (const boundary of ['\n\n', '\n', ' ']) {
    const at = text.lastIndexOf(boundary, maxLength - boundary.length);
    if (at >= floor) return at;
  }
  // Never leave half of a surrogate pair at the end.
  const last = text.charCodeAt(maxLength - 1);
  return last >= 0xd800 && last <= 0xdbff ? maxLength - 1 : maxLength;
}

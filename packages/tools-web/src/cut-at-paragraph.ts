import { MAX_ANSWER_CHARS } from '@oneclaw/tool-registry';

export interface TextWindow {
  /** Character of the full text the window starts at (the tool's `start_index`). */
  readonly start: number;
  /** Most characters shown; capped at MAX_ANSWER_CHARS. */
  readonly maxLength: number;
  /** The tool to call again to read on, named in the note. */
  readonly tool: string;
}

/**
 * The part of a long text that fits in one answer: from `start`, at most `maxLength` characters,
 * cut at the last paragraph break before the limit (or a line break, or a space, when there is
 * none in the second half), followed by a note saying which characters were shown and how to read
 * on. A text that fits whole is returned as is.
 */
export function cutAtParagraph(text: string, window: TextWindow): string {
  const start = Math.min(Math.max(0, window.start), text.length);
  const maxLength = Math.min(window.maxLength, MAX_ANSWER_CHARS);
  if (start === 0 && text.length <= maxLength) return text;
  if (start >= text.length) return `[The text is ${text.length} characters long; start_index ${window.start} is past its end.]`;
  const rest = text.slice(start);
  const end = rest.length <= maxLength ? rest.length : cutPoint(rest, maxLength);
  const shown = rest.slice(0, end).trimEnd();
  const last = start + shown.length;
  // The next window starts at the next text, not at the blank lines the cut was made at.
  let next = start + end;
  while (next < text.length && /\s/.test(text.charAt(next))) next++;
  const readOn = next < text.length ? ` To read on, call ${window.tool} again with start_index ${next}.` : '';
  return `${shown}\n\n[Showing characters ${start}-${last} of ${text.length}.${readOn}]`;
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

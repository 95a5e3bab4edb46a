import { describe, expect, it } from '@jest/globals';
import { MAX_ANSWER_CHARS } from '@oneclaw/tool-registry';
import { cutAtParagraph } from './cut-at-paragraph';

const window = (maxLength: number, start = 0) => ({ start, maxLength, tool: 'webfetch' });
const shownPart = (text: string): string => text.split('\n\n[Showing ')[0] ?? '';

describe('cutAtParagraph', () => {
  it('returns text within the limit unchanged, with no note', () => {
    expect(cutAtParagraph('short\n\ntext', window(11))).toBe('short\n\ntext');
  });

  it('cuts at the last paragraph break before the limit and says how to read on', () => {
    const text = `${'a'.repeat(60)}\n\n${'b'.repeat(30)}\n\n${'c'.repeat(30)}`;
    expect(cutAtParagraph(text, window(100))).toBe(
      `${'a'.repeat(60)}\n\n${'b'.repeat(30)}\n\n[Showing characters 0-92 of 124. To read on, call webfetch again with start_index 94.]`,
    );
  });

  it('reads on from start_index: the next window, and no read-on hint once the end is shown', () => {
    const text = `${'a'.repeat(60)}\n\n${'b'.repeat(30)}\n\n${'c'.repeat(30)}`;
    expect(cutAtParagraph(text, window(100, 94))).toBe(`${'c'.repeat(30)}\n\n[Showing characters 94-124 of 124.]`);
    expect(cutAtParagraph(text, window(100, 500))).toBe('[The text is 124 characters long; start_index 500 is past its end.]');
  });

  it('never shows more than one answer can hold, whatever max_length asks for', () => {
    const text = 'word '.repeat(MAX_ANSWER_CHARS);
    expect(shownPart(cutAtParagraph(text, window(1_000_000))).length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
  });

  it('falls back to a line break, then a space, when no paragraph break lies in the second half', () => {
    expect(shownPart(cutAtParagraph(`${'a'.repeat(10)}\n\n${'b'.repeat(60)}\n${'c'.repeat(60)}`, window(100)))).toBe(`${'a'.repeat(10)}\n\n${'b'.repeat(60)}`);
    expect(shownPart(cutAtParagraph(`${'w'.repeat(70)} ${'x'.repeat(70)}`, window(100)))).toBe('w'.repeat(70));
  });

  it('cuts mid-word when there is no boundary at all, never splitting a surrogate pair', () => {
    expect(shownPart(cutAtParagraph('z'.repeat(150), window(100)))).toBe('z'.repeat(100));
    const emoji = `${'z'.repeat(99)}😀${'z'.repeat(50)}`;
    expect(shownPart(cutAtParagraph(emoji, window(100)))).toBe('z'.repeat(99));
  });
});

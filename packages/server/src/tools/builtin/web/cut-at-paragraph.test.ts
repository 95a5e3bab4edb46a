import { describe, expect, it } from '@jest/globals';
import { cutAtParagraph } from './cut-at-paragraph';

const shownPart = (text: string): string => text.split('\n\n[Cut at ')[0] ?? '';

describe('cutAtParagraph', () => {
  it('returns text within the limit unchanged, with no note', () => {
    expect(cutAtParagraph('short\n\ntext', 11)).toBe('short\n\ntext');
  });

  it('cuts at the last paragraph break before the limit and says how long the full text is', () => {
    const text = `${'a'.repeat(60)}\n\n${'b'.repeat(30)}\n\n${'c'.repeat(30)}`;
    expect(cutAtParagraph(text, 100)).toBe(
      `${'a'.repeat(60)}\n\n${'b'.repeat(30)}\n\n[Cut at 92 of 124 characters: the full text is 124 characters long. Pass a larger max_length to read more.]`,
    );
  });

  it('falls back to a line break, then a space, when no paragraph break lies in the second half', () => {
    expect(shownPart(cutAtParagraph(`${'a'.repeat(10)}\n\n${'b'.repeat(60)}\n${'c'.repeat(60)}`, 100))).toBe(`${'a'.repeat(10)}\n\n${'b'.repeat(60)}`);
    expect(shownPart(cutAtParagraph(`${'w'.repeat(70)} ${'x'.repeat(70)}`, 100))).toBe('w'.repeat(70));
  });

  it('cuts mid-word when there is no boundary at all, never splitting a surrogate pair', () => {
    expect(shownPart(cutAtParagraph('z'.repeat(150), 100))).toBe('z'.repeat(100));
    const emoji = `${'z'.repeat(99)}😀${'z'.repeat(50)}`;
    expect(shownPart(cutAtParagraph(emoji, 100))).toBe('z'.repeat(99));
  });
});

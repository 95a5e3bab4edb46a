import { describe, expect, it } from '@jest/globals';
import { OneClawError } from '@oneclaw/core';
import { formatPageRanges, parsePageRanges, selectPages } from './page-ranges';

function refusal(action: () => unknown): OneClawError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(OneClawError);
    expect((error as OneClawError).code).toBe('invalid_pages');
    return error as OneClawError;
  }
  throw new Error('expected invalid_pages');
}

describe('parsePageRanges', () => {
  it('reads single pages, ranges and open ranges, with spaces anywhere', () => {
    expect(parsePageRanges('1-5,7')).toEqual([
      { from: 1, to: 5 },
      { from: 7, to: 7 },
    ]);
    expect(parsePageRanges(' 3 - , 2 ')).toEqual([
      { from: 3, to: 'end' },
      { from: 2, to: 2 },
    ]);
  });

  it('takes no selection, empty text and "all" as every page', () => {
    expect(parsePageRanges(undefined)).toBeUndefined();
    expect(parsePageRanges('  ')).toBeUndefined();
    expect(parsePageRanges('ALL')).toBeUndefined();
  });

  it('refuses malformed selections with invalid_pages and an example', () => {
    for (const spec of ['one', '1-2-3', '1,,2', '-3', '1;2', '2.5', '1-5,']) {
      expect(refusal(() => parsePageRanges(spec)).message).toContain('such as "1-5,7"');
    }
  });

  it('refuses page 0 and backwards ranges, saying which', () => {
    expect(refusal(() => parsePageRanges('0')).message).toContain('names page 0');
    expect(refusal(() => parsePageRanges('2-0')).message).toContain('names page 0');
    expect(refusal(() => parsePageRanges('5-3')).message).toContain('write the lower page first, such as "3-5"');
  });
});

describe('selectPages', () => {
  it('lists the pages ascending, each once', () => {
    expect(selectPages(parsePageRanges('7,1-3,2,5-'), 8, "'a.pdf'")).toEqual([1, 2, 3, 5, 6, 7, 8]);
    expect(selectPages(undefined, 3, "'a.pdf'")).toEqual([1, 2, 3]);
  });

  it('refuses a page beyond the last, naming the page count', () => {
    expect(refusal(() => selectPages(parsePageRanges('2-9'), 4, "'a.pdf'")).message).toBe("Page 9 does not exist: 'a.pdf' has 4 pages. Ask for pages 1-4.");
    expect(refusal(() => selectPages(parsePageRanges('2'), 1, "'b.pdf'")).message).toBe("Page 2 does not exist: 'b.pdf' has 1 page. Ask for pages 1-1.");
    // An open range starting past the end is refused too, not read as nothing.
    expect(refusal(() => selectPages(parsePageRanges('6-'), 4, "'a.pdf'")).message).toContain('Page 6 does not exist');
  });
});

describe('formatPageRanges', () => {
  it('writes the shortest selection', () => {
    expect(formatPageRanges([1, 2, 3, 5, 7, 8])).toBe('1-3,5,7-8');
    expect(formatPageRanges([4])).toBe('4');
    expect(formatPageRanges([])).toBe('');
  });
});

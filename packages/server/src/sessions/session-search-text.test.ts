import { describe, expect, it } from '@jest/globals';
import { appendSearchText, SEARCH_HEAD_CHARS, SEARCH_TAIL_CHARS, searchTerms, type KeptText } from './session-search-text';

describe('appendSearchText: what is kept of a session', () => {
  const has = (kept: KeptText, term: string) => kept.head.includes(term) || kept.tail.includes(term);

  it('keeps at most the first and the latest characters, however much is added', () => {
    let kept: KeptText = { head: '', tail: '' };
    kept = appendSearchText(kept, 'first-words');
    for (let i = 0; i < 200; i++) kept = appendSearchText(kept, `filler ${i} `.repeat(50));
    kept = appendSearchText(kept, 'last-words');
    expect(has(kept, 'first-words')).toBe(true);
    expect(has(kept, 'last-words')).toBe(true);
    expect(has(kept, 'filler 100 ')).toBe(false);
    expect(kept.head).toHaveLength(SEARCH_HEAD_CHARS);
    expect(kept.tail).toHaveLength(SEARCH_TAIL_CHARS);
  });

  it('one message longer than both caps keeps its start and its end', () => {
    const kept = appendSearchText({ head: '', tail: '' }, `start ${'x'.repeat(SEARCH_HEAD_CHARS + SEARCH_TAIL_CHARS)} end`);
    expect(kept.head.startsWith('start ')).toBe(true);
    expect(kept.tail.endsWith(' end')).toBe(true);
    expect(kept.head.length + kept.tail.length).toBe(SEARCH_HEAD_CHARS + SEARCH_TAIL_CHARS);
  });

  it('a blank message changes nothing', () => {
    const kept = { head: 'a', tail: '' };
    expect(appendSearchText(kept, ' \n\t ')).toBe(kept);
  });
});

describe('searchTerms', () => {
  it('splits a query into its words, lower-cased; a blank query has none', () => {
    expect(searchTerms('  Weekend\n IN  lisbon ')).toEqual(['weekend', 'in', 'lisbon']);
    expect(searchTerms('  \n ')).toEqual([]);
  });
});

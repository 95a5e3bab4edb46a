import { describe, expect, it } from '@jest/globals';
import { SEARCH_HEAD_CHARS, SEARCH_TAIL_CHARS, searchTerms, SessionSearchText } from './session-search-text';

describe('the session list search text', () => {
  it('matches any case, across white space and line breaks of the messages', () => {
    const text = new SessionSearchText();
    text.add('Plan a WEEKEND\n\nin   Lisbon');
    for (const term of searchTerms('weekend IN lisbon')) expect(text.has(term)).toBe(true);
    expect(text.has('in lisbon')).toBe(true);
    expect(text.has('porto')).toBe(false);
  });

  it('keeps at most the first and the latest characters, however much is added', () => {
    const text = new SessionSearchText();
    text.add('first-words');
    for (let i = 0; i < 200; i++) text.add(`filler ${i} `.repeat(50));
    text.add('last-words');
    expect(text.has('first-words')).toBe(true);
    expect(text.has('last-words')).toBe(true);
    expect(text.has('filler 100 ')).toBe(false);
    const kept = JSON.stringify(text).length;
    expect(kept).toBeLessThanOrEqual(SEARCH_HEAD_CHARS + SEARCH_TAIL_CHARS + 100);
  });

  it('a clear forgets everything', () => {
    const text = new SessionSearchText();
    text.add('secret plans');
    text.clear();
    expect(text.has('secret')).toBe(false);
  });

  it('a blank query has no terms', () => {
    expect(searchTerms('  \n ')).toEqual([]);
  });
});

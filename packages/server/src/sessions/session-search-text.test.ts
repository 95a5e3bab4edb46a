import { afterEach, describe, expect, it } from '@jest/globals';
import { appendSearchText, SEARCH_HEAD_CHARS, SEARCH_TAIL_CHARS, searchTerms, SessionSearchTexts, type KeptText } from './session-search-text';

describe('the session list search text (SessionSearchTexts)', () => {
  let texts: SessionSearchTexts;
  afterEach(() => texts.close());
  const found = (query: string) => [...texts.sessionsWithAll(searchTerms(query))].sort();

  it('matches each word in the title or the text, any case, across white space and line breaks', () => {
    texts = new SessionSearchTexts();
    texts.batch(() => {
      texts.setTitle('a', 'Weekend trip');
      texts.addText('a', 'Plan a WEEKEND\n\nin   Lisbon');
      texts.addText('b', 'Porto');
    });
    expect(found('weekend IN lisbon')).toEqual(['a']);
    expect(found('trip lisbon')).toEqual(['a']); // one word in the title, one in the text
    expect(texts.sessionsWithAll(['in lisbon'])).toEqual(new Set(['a']));
    expect(found('porto')).toEqual(['b']);
    expect(found('faro')).toEqual([]);
  });

  it('takes a term with SQL wildcards or quotes as plain text', () => {
    texts = new SessionSearchTexts();
    texts.batch(() => {
      texts.addText('a', "100% it's a_b");
      texts.addText('b', '100 percent');
    });
    for (const term of ['100%', "it's", 'a_b', '%']) expect(found(term)).toEqual(['a']);
  });

  it('a clear forgets the text and keeps the title; forget drops the session; nothing is written until the batch ends', () => {
    texts = new SessionSearchTexts();
    texts.batch(() => {
      texts.setTitle('a', 'Secret title');
      texts.addText('a', 'secret plans');
      texts.addText('b', 'secret too');
      expect(found('secret')).toEqual([]);
    });
    texts.batch(() => texts.clearText('a'));
    expect(found('plans')).toEqual([]);
    expect(found('secret')).toEqual(['a', 'b']);
    texts.batch(() => texts.forget('b'));
    expect(found('secret')).toEqual(['a']);
  });

  it('a batch that throws writes nothing', () => {
    texts = new SessionSearchTexts();
    expect(() =>
      texts.batch(() => {
        texts.addText('a', 'half applied');
        throw new Error('apply failed');
      }),
    ).toThrow('apply failed');
    texts.batch(() => texts.addText('b', 'applied'));
    expect(found('applied')).toEqual(['b']);
  });

  it('a blank query has no terms', () => {
    texts = new SessionSearchTexts();
    expect(searchTerms('  \n ')).toEqual([]);
  });
});

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

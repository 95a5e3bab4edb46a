import { describe, expect, test } from '@jest/globals';
import { safeHttpUrl, splitLinks } from './linkify';

describe('links in assistant text', () => {
  test('http(s) URLs become links; the text around them stays text', () => {
    expect(splitLinks('See https://example.com/a?b=1 and http://x.org.')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'http://x.org', href: 'http://x.org/' },
      { kind: 'text', text: '.' },
    ]);
  });

  test('sentence punctuation after a URL is not part of it, a parenthesis the URL opened is', () => {
    expect(splitLinks('(https://a.example/b), ok')[1]).toEqual({ kind: 'link', text: 'https://a.example/b', href: 'https://a.example/b' });
    expect(splitLinks('https://en.wikipedia.org/wiki/Claw_(disambiguation).')[0]).toMatchObject({ text: 'https://en.wikipedia.org/wiki/Claw_(disambiguation)' });
  });

  test('other schemes and markup stay plain text', () => {
    const text = 'javascript:alert(1) data:text/html,<b>x</b> <img src=x onerror=alert(1)>';
    expect(splitLinks(text)).toEqual([{ kind: 'text', text }]);
    expect(safeHttpUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeHttpUrl('https://')).toBeUndefined();
  });

  test('text without links is one part; empty text is none', () => {
    expect(splitLinks('line one\nline two')).toEqual([{ kind: 'text', text: 'line one\nline two' }]);
    expect(splitLinks('')).toEqual([]);
  });
});

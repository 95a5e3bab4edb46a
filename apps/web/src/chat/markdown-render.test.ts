import { describe, expect, test } from '@jest/globals';
import { isAllowedLink, renderMarkdown } from './markdown-render';

describe('assistant markdown', () => {
  test('raw HTML from the model is shown as text, never rendered', () => {
    const html = renderMarkdown('<b>not bold</b> <script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(html).not.toMatch(/<b>|<script|<img/);
    expect(html).toContain('&lt;b&gt;not bold&lt;/b&gt;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test('links open outside the app; only http(s) and mailto targets become links', () => {
    const html = renderMarkdown('[docs](https://example.com/a) [mail](mailto:me@example.com) [bad](javascript:alert(1)) [data](data:text/html,x) [rel](/api/sessions)');
    expect(html).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">docs</a>');
    expect(html).toContain('<a href="mailto:me@example.com" target="_blank" rel="noopener noreferrer">mail</a>');
    expect(html).toContain('[bad](javascript:alert(1))');
    expect(html).toContain('[data](data:text/html,x)');
    expect(html).toContain('[rel](/api/sessions)');
    expect(html.match(/<a /g)).toHaveLength(2);
  });

  test('bare URLs become links too, with the same attributes', () => {
    expect(renderMarkdown('See https://example.com/docs.')).toContain('<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">https://example.com/docs</a>.');
  });

  test('images are not loaded: the alt text is a link to the URL instead', () => {
    const html = renderMarkdown('![secret](https://evil.example/?q=1)');
    expect(html).not.toContain('<img');
    expect(html).toContain('!<a href="https://evil.example/?q=1" target="_blank" rel="noopener noreferrer">secret</a>');
  });

  test('tables render, with alignment as a class rather than an inline style, inside a scroll box', () => {
    const html = renderMarkdown('| Name | Count |\n|:--|--:|\n| apples | 3 |');
    expect(html).toContain('<div class="md-table" tabindex="0"><table>');
    expect(html).toContain('<th class="md-align-left">Name</th>');
    expect(html).toContain('<td class="md-align-right">3</td>');
    expect(html).not.toContain('style=');
  });

  test('lists, emphasis and line breaks', () => {
    const html = renderMarkdown('1. one\n2. **two**\n\n- a\n- b\n\nline\nnext');
    expect(html).toContain('<ol>\n<li>one</li>\n<li><strong>two</strong></li>\n</ol>');
    expect(html).toContain('<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    expect(html).toContain('<p>line<br>\nnext</p>');
  });

  test('a fenced code block is highlighted, names its language and has a copy button', () => {
    const html = renderMarkdown('```ts\nconst answer: number = 42;\n```');
    expect(html).toContain('<span class="code-block__language">ts</span>');
    expect(html).toContain('<button type="button" class="code-block__copy" aria-label="Copy code">Copy</button>');
    expect(html).toContain('<code class="hljs language-ts">');
    expect(html).toContain('<span class="hljs-keyword">const</span>');
    expect(html).toContain('<span class="hljs-number">42</span>');
  });

  test('code in an unknown or hostile language is escaped text, without highlighting', () => {
    const html = renderMarkdown('```"><script>\n<b>x</b>\n```\n\n```cobol\nDISPLAY "HI".\n```');
    expect(html).not.toMatch(/<script|<b>|hljs-/);
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).toContain('<span class="code-block__language">code</span>');
    expect(html).toContain('<span class="code-block__language">cobol</span>');
    expect(html).toContain('<code class="hljs">DISPLAY &quot;HI&quot;.\n</code>');
  });

  test('a reply cut off mid-stream still renders: an open fence is code so far, half a table is text', () => {
    expect(renderMarkdown('Here:\n```python\ndef f(')).toContain('<code class="hljs language-python"><span class="hljs-keyword">def</span>');
    expect(renderMarkdown('| a | b |\n|--')).not.toContain('<table>');
    expect(renderMarkdown('')).toBe('');
  });

  test('isAllowedLink accepts absolute http(s) and mailto only', () => {
    expect(isAllowedLink('https://example.com')).toBe(true);
    expect(isAllowedLink('HTTP://example.com')).toBe(true);
    expect(isAllowedLink('mailto:a@b.c')).toBe(true);
    expect(isAllowedLink(' javascript:alert(1)')).toBe(false);
    expect(isAllowedLink('vbscript:x')).toBe(false);
    expect(isAllowedLink('//evil.example')).toBe(false);
    expect(isAllowedLink('#/settings')).toBe(false);
  });
});

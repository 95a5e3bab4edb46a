import { describe, expect, it } from '@jest/globals';
import { htmlToMarkdown } from './html-to-markdown';

const page = 'https://example.com/docs/guide.html';

describe('htmlToMarkdown', () => {
  it('keeps headings, paragraphs, lists, emphasis and fenced code', () => {
    const { markdown } = htmlToMarkdown(
      '<h1>Guide</h1><p>Some <strong>bold</strong> and <em>soft</em> words.</p><ul><li>one</li><li>two</li></ul><pre><code>let x = 1;</code></pre>',
      page,
    );
    expect(markdown).toBe('# Guide\n\nSome **bold** and *soft* words.\n\n-   one\n-   two\n\n```\nlet x = 1;\n```');
  });

  it('reads the title (entities decoded, whitespace collapsed) without putting it in the text', () => {
    const result = htmlToMarkdown('<html><head><title>\n  Fish &amp; Chips \n</title></head><body><p>Menu</p></body></html>', page);
    expect(result).toEqual({ title: 'Fish & Chips', markdown: 'Menu' });
    expect(htmlToMarkdown('<p>No title</p>', page).title).toBeUndefined();
  });

  it('makes links and images absolute (against the page, or its <base>), keeps mailto, drops javascript: links and empty links', () => {
    const { markdown } = htmlToMarkdown(
      '<p><a href="next.html">Next</a> <a href="/top">Top</a> <a href="mailto:a@b.c">Mail</a> <a href="javascript:void(0)">Run</a> <a href="/x"></a> <a href="/p(1)">Paren</a></p>',
      page,
    );
    expect(markdown).toBe('[Next](https://example.com/docs/next.html) [Top](https://example.com/top) [Mail](mailto:a@b.c) Run [Paren](https://example.com/p%281%29)');
    const based = htmlToMarkdown('<html><head><base href="https://cdn.example.org/v2/"></head><body><a href="a.html">A</a><img src="i.png" alt="Pic"></body></html>', page);
    expect(based.markdown).toBe('[A](https://cdn.example.org/v2/a.html)![Pic](https://cdn.example.org/v2/i.png)');
  });

  it('drops images without alt text and keeps only the alt text of inline data images', () => {
    const { markdown } = htmlToMarkdown('<p>A<img src="/pixel.gif">B<img src="data:image/png;base64,AAAA" alt="Chart">C</p>', page);
    expect(markdown).toBe('ABChartC');
  });

  it('drops scripts, styles, noscript, iframes, svg, form controls, navigation, hidden parts and the site footer, but not an article footer', () => {
    const { markdown } = htmlToMarkdown(
      `<script>S1</script><style>S2</style><noscript>S3</noscript><iframe src="/f">S4</iframe><svg><text>S5</text></svg>
       <nav>S6</nav><div role="navigation">S7</div><form><input value="S8"><button>S9</button><select><option>S10</option></select><textarea>S11</textarea><label>Kept label</label></form>
       <div hidden>S12</div><article><p>Body</p><footer>By Ann</footer></article><footer>S13</footer>`,
      page,
    );
    expect(markdown).toBe('Kept label\n\nBody\n\nBy Ann');
  });

  it('turns a data table (header row first) into a pipe table, escaping pipes; leaves layout tables as paragraphs', () => {
    const data = htmlToMarkdown('<table><thead><tr><th>Name</th><th>Note</th></tr></thead><tbody><tr><td>a|b</td><td>two\nlines</td></tr></tbody></table>', page);
    expect(data.markdown).toBe('| Name | Note |\n| --- | --- |\n| a\\|b | two lines |');
    const layout = htmlToMarkdown('<table><tr><td><p>Left column</p></td><td><p>Right column</p></td></tr></table>', page);
    expect(layout.markdown).toBe('Left column\n\nRight column');
  });

  it('collapses runs of blank lines', () => {
    expect(htmlToMarkdown('<p>a</p><div><br><br><br></div><p>b</p>', page).markdown).not.toMatch(/\n{3,}/);
  });
});

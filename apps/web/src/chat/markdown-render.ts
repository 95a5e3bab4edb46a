/**
 * Assistant replies as markdown, rendered to an HTML string for `dangerouslySetInnerHTML`.
 * The safety of that rests on markdown-it's own escaping plus the choices here:
 *
 * - `html: false`: raw HTML in a reply is never rendered, only shown as text.
 * - Links only for `http:`, `https:` and `mailto:` (`validateLink`); any other target
 *   (`javascript:`, `data:`, relative paths) leaves the markdown as plain text. Links open
 *   outside the app with `rel="noopener noreferrer"`.
 * - No images: a reply could otherwise make the browser fetch any URL (the CSP blocks remote
 *   images, but the attempt would still be a console error, and data: images are allowed);
 *   `![alt](url)` shows as `!` and a link.
 * - No inline styles: table column alignment becomes a class, so the output needs nothing from
 *   `style-src`.
 *
 * Streaming re-renders the whole text so far on every chunk; markdown-it is fast enough and an
 * unfinished construct (an open fence, half a table) simply renders as what it is so far.
 */
import markdownIt, { type MarkdownIt, type RendererRule } from 'markdown-it';
import { highlightCode } from './code-highlight';

const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
const ALIGN_STYLE = /^text-align:(left|right|center)$/;
const LANGUAGE_WORD = /^[a-zA-Z0-9_+#.-]{1,32}$/;

/** True for absolute http(s) and mailto URLs; everything else is refused. */
export function isAllowedLink(url: string): boolean {
  try {
    return ALLOWED_SCHEMES.has(new URL(url.trim()).protocol);
  } catch {
    return false;
  }
}

function createRenderer(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  md.disable('image');
  md.validateLink = isAllowedLink;
  const { escapeHtml, unescapeAll } = md.utils;
  const rules = md.renderer.rules;

  rules.link_open = (tokens, index, options, _env, self) => {
    const token = tokens[index]!;
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
    return self.renderToken(tokens, index, options);
  };

  // A wide table scrolls sideways inside its own box instead of widening the page; the box is
  // focusable so a keyboard can scroll it too (as is a code block's, below).
  rules.table_open = (tokens, index, options, _env, self) => `<div class="md-table" tabindex="0">${self.renderToken(tokens, index, options)}`;
  rules.table_close = (tokens, index, options, _env, self) => `${self.renderToken(tokens, index, options)}</div>`;
  const alignAsClass: RendererRule = (tokens, index, options, _env, self) => {
    const token = tokens[index]!;
    const align = ALIGN_STYLE.exec(String(token.attrGet('style') ?? ''))?.[1];
    if (token.attrs) token.attrs = token.attrs.filter(([name]) => name !== 'style');
    if (align) token.attrJoin('class', `md-align-${align}`);
    return self.renderToken(tokens, index, options);
  };
  rules.th_open = alignAsClass;
  rules.td_open = alignAsClass;

  // Fenced and indented code: highlighted, with a bar naming the language and a copy button
  // (the component handles its click; no inline handler, which the CSP would block anyway).
  const codeBlock = (code: string, info: string): string => {
    const word = info.split(/\s+/)[0] ?? '';
    const requested = LANGUAGE_WORD.test(word) ? word : undefined;
    const { language, html } = highlightCode(code, requested, escapeHtml);
    const label = language ?? requested;
    const languageClass = language ? ` language-${escapeHtml(language)}` : '';
    return (
      '<div class="code-block">' +
      '<div class="code-block__bar">' +
      `<span class="code-block__language">${label ? escapeHtml(label) : 'code'}</span>` +
      '<button type="button" class="code-block__copy" aria-label="Copy code">Copy</button>' +
      '</div>' +
      `<pre class="code-block__pre" tabindex="0"><code class="hljs${languageClass}">${html}</code></pre>` +
      '</div>\n'
    );
  };
  rules.fence = (tokens, index) => {
    const token = tokens[index]!;
    return codeBlock(token.content, token.info ? unescapeAll(token.info).trim() : '');
  };
  rules.code_block = (tokens, index) => codeBlock(tokens[index]!.content, '');
  return md;
}

const renderer = createRenderer();

/** The reply's markdown as safe HTML (see the module comment for what "safe" means here). */
export function renderMarkdown(text: string): string {
  return renderer.render(text);
}

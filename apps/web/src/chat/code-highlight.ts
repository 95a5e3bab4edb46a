/**
 * Syntax highlighting for code blocks in assistant replies: highlight.js's core with a handful
 * of languages registered by hand, so the bundle carries only these (the full build with every
 * language is several hundred kB). The output is HTML made of escaped text and
 * `<span class="hljs-…">`: classes only, no inline styles, so it needs nothing from the CSP.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

hljs.registerLanguage('bash', bash);
hljs.registerLanguage('css', css);
hljs.registerLanguage('diff', diff);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
hljs.registerLanguage('python', python);
hljs.registerLanguage('sql', sql);
hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('xml', xml);
hljs.registerLanguage('yaml', yaml);

export interface HighlightedCode {
  /** The language as asked for (`ts` stays `ts`) when it is registered, otherwise undefined. */
  readonly language: string | undefined;
  /** Safe HTML: escaped text, with highlight spans when the language is known. */
  readonly html: string;
}

/**
 * Highlights `code` as `languageName` (a fence's info word, aliases included). Unknown or absent
 * languages are escaped text without guessing: auto-detection would cost time on every streamed
 * chunk and often guesses wrong on short snippets.
 */
export function highlightCode(code: string, languageName: string | undefined, escapeHtml: (text: string) => string): HighlightedCode {
  const language = languageName ? hljs.getLanguage(languageName) : undefined;
  if (!language || !languageName) return { language: undefined, html: escapeHtml(code) };
  // ignoreIllegals: half-streamed or odd code still highlights instead of throwing.
  const result = hljs.highlight(code, { language: languageName, ignoreIllegals: true });
  return { language: languageName, html: result.value };
}

/**
 * Splits assistant text into plain text and http(s) links. The text is rendered as text nodes
 * (never HTML), so a reply cannot inject markup; only http(s) URLs become links, so a reply
 * cannot plant a `javascript:` or `data:` link either.
 */
export type TextPart = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'link'; readonly text: string; readonly href: string };

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that usually ends a sentence rather than the URL before it. */
const TRAILING = /[.,;:!?'")\]}>*_]+$/;

export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    let candidate = match[0];
    const trailing = TRAILING.exec(candidate)?.[0] ?? '';
    candidate = candidate.slice(0, candidate.length - trailing.length);
    // Keep a closing parenthesis the URL itself opened (Wikipedia-style links).
    if (trailing.startsWith(')') && candidate.includes('(') && !candidate.includes(')')) candidate += ')';
    const href = safeHttpUrl(candidate);
    if (!href) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: candidate, href });
    last = start + candidate.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** The URL, normalised, if it parses and is http(s) with a host; otherwise undefined. */
export function safeHttpUrl(candidate: string): string | undefined {
  try {
    const url = new URL(candidate);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}

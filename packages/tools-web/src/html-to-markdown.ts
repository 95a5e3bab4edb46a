import TurndownService from 'turndown';

/** A page as the model reads it. */
export interface MarkdownPage {
  /** The document's <title>, whitespace collapsed; undefined when it has none. */
  readonly title: string | undefined;
  readonly markdown: string;
}

/**
 * The few DOM members the rules use. This package compiles without the DOM library, and turndown's
 * own types name DOM classes, so the nodes it hands over are described here.
 */
interface DomElement {
  readonly nodeName: string;
  readonly textContent: string | null;
  readonly parentNode: DomElement | null;
  readonly firstElementChild?: DomElement | null;
  readonly children?: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  // domino answers undefined, not null, for "no match": test these for truthiness.
  closest(selector: string): DomElement | null | undefined;
  querySelector(selector: string): DomElement | null | undefined;
}

/** Elements that carry no readable text, or only page chrome and form controls. */
const DROPPED_TAGS = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'canvas',
  'video',
  'audio',
  'map',
  'button',
  'input',
  'select',
  'option',
  'textarea',
  'datalist',
  'nav',
];

/**
 * Converts an HTML document (a fetched page, or a rendered DOM serialised by the browser) to
 * Markdown with turndown: headings as `#`, fenced code, links and images with absolute URLs (the
 * model follows them with another call), data tables as pipe tables. Scripts, styles, embedded
 * frames, form controls and navigation chrome are dropped; so are hidden elements and images
 * without alt text (tracking pixels, spacers) or with inline data.
 */
export function htmlToMarkdown(html: string, pageUrl: string): MarkdownPage {
  let title: string | undefined;
  let base = safeUrl(pageUrl);
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });

  service.remove(DROPPED_TAGS as TurndownService.TagName[]);
  service.remove(((node: DomElement) => isChrome(node)) as TurndownService.FilterFunction);
  service.addRule('title', {
    filter: ((node: DomElement) => node.nodeName === 'TITLE' && !node.closest('svg')) as TurndownService.FilterFunction,
    replacement: (_content, node) => {
      title ??= collapse((node as unknown as DomElement).textContent ?? '') || undefined;
      return '';
    },
  });
  // Turndown walks the document in order, so <base> (in the head) is seen before any link.
  service.addRule('base', {
    filter: ((node: DomElement) => node.nodeName === 'BASE') as TurndownService.FilterFunction,
    replacement: (_content, node) => {
      const href = (node as unknown as DomElement).getAttribute('href');
      const resolved = href === null ? undefined : safeUrl(href, base);
      if (resolved) base = resolved;
      return '';
    },
  });
  service.addRule('link', {
    filter: ((node: DomElement) => node.nodeName === 'A') as TurndownService.FilterFunction,
    replacement: (content, node) => {
      const text = content.trim();
      const href = linkTarget((node as unknown as DomElement).getAttribute('href'), base);
      if (text === '') return '';
      if (href === undefined) return content;
      return `[${text.replace(/\n+/g, ' ')}](${href})`;
    },
  });
  service.addRule('image', {
    filter: ((node: DomElement) => node.nodeName === 'IMG') as TurndownService.FilterFunction,
    replacement: (_content, node) => {
      const element = node as unknown as DomElement;
      const alt = collapse(element.getAttribute('alt') ?? '');
      const src = linkTarget(element.getAttribute('src'), base);
      if (alt === '') return '';
      return src === undefined ? alt : `![${alt.replace(/[[\]]/g, '')}](${src})`;
    },
  });
  service.addRule('tableCell', {
    filter: ((node: DomElement) => (node.nodeName === 'TH' || node.nodeName === 'TD') && isDataTable(tableOf(node))) as TurndownService.FilterFunction,
    replacement: (content) => ` ${collapse(content).replace(/\|/g, '\\|')} |`,
  });
  service.addRule('tableRow', {
    filter: ((node: DomElement) => node.nodeName === 'TR' && isDataTable(tableOf(node))) as TurndownService.FilterFunction,
    replacement: (content, node) => {
      const row = `\n|${content}`;
      if (!isFirstRow(node as unknown as DomElement)) return row;
      const cells = (content.match(/(?<!\\)\|/g) ?? []).length;
      return `${row}\n|${' --- |'.repeat(Math.max(cells, 1))}`;
    },
  });
  // Sections are blocks to turndown; inside a pipe table they must not add blank lines.
  service.addRule('tableSection', {
    filter: ((node: DomElement) => ['THEAD', 'TBODY', 'TFOOT'].includes(node.nodeName) && isDataTable(tableOf(node))) as TurndownService.FilterFunction,
    replacement: (content) => content,
  });
  service.addRule('table', {
    filter: ((node: DomElement) => node.nodeName === 'TABLE' && isDataTable(node)) as TurndownService.FilterFunction,
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });

  const markdown = service
    .turndown(html)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, markdown };
}

/** Site navigation, footers and hidden parts: not the content the model asked for. */
function isChrome(node: DomElement): boolean {
  // Not aria-hidden: modal dialogs (cookie banners) set it on the whole page behind them.
  if (node.hasAttribute('hidden')) return true;
  const role = node.getAttribute('role');
  if (role === 'navigation' || role === 'search') return true;
  // A footer inside the article is part of it (author, date); the site's footer is not.
  return (node.nodeName === 'FOOTER' || role === 'contentinfo') && !node.closest('main, article, [role="main"]');
}

/** An absolute http(s) or mailto URL for a link or image; undefined for script links, inline data and junk. */
function linkTarget(href: string | null, base: URL | undefined): string | undefined {
  if (href === null || href.trim() === '') return undefined;
  const url = safeUrl(href.trim(), base);
  if (!url || !['http:', 'https:', 'mailto:'].includes(url.protocol)) return undefined;
  return url.href.replace(/\(/g, '%28').replace(/\)/g, '%29');
}

function safeUrl(value: string, base?: URL): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function tableOf(node: DomElement): DomElement | undefined {
  return node.closest('table') ?? undefined;
}

/**
 * A table whose first row is all header cells and that holds no other table. Anything else is a
 * layout table (old sites lay pages out with them): its cells are left as paragraphs.
 */
function isDataTable(table: DomElement | undefined): boolean {
  if (!table || table.querySelector('table')) return false;
  const firstRow = table.querySelector('tr');
  const cells = Array.from(firstRow?.children ?? []);
  return cells.length > 0 && cells.every((cell) => cell.nodeName === 'TH');
}

function isFirstRow(row: DomElement): boolean {
  const table = tableOf(row);
  return table !== undefined && table.querySelector('tr') === row;
}

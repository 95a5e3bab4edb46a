import { OneClawError } from '@oneclaw/core';

/** One item of a page selection: `7` is {from: 7, to: 7}; `5-` runs to the last page. */
export interface PageRange {
  readonly from: number;
  readonly to: number | 'end';
}

const EXAMPLE = 'use page numbers and ranges separated by commas, such as "1-5,7" or "3-" (pages start at 1)';

/**
 * Parses a page selection such as "1-5,7". Empty text or "all" means every page (undefined);
 * anything else malformed is `invalid_pages`, before the PDF is even opened.
 */
export function parsePageRanges(spec: string | undefined): PageRange[] | undefined {
  if (spec === undefined) return undefined;
  const text = spec.trim();
  if (text === '' || text.toLowerCase() === 'all') return undefined;
  return text.split(',').map((item) => parseItem(item.trim(), spec));
}

function parseItem(item: string, spec: string): PageRange {
  const match = /^(\d+)\s*(?:-\s*(\d*))?$/.exec(item);
  if (!match) throw invalidPages(`Page selection ${JSON.stringify(spec)} is not valid at ${JSON.stringify(item)}: ${EXAMPLE}.`);
  const from = Number(match[1]);
  const to = match[2] === undefined ? from : match[2] === '' ? 'end' : Number(match[2]);
  if (from < 1 || to === 0) throw invalidPages(`Page selection ${JSON.stringify(spec)} names page 0: ${EXAMPLE}.`);
  if (to !== 'end' && to < from) {
    throw invalidPages(`Page selection ${JSON.stringify(spec)} has the range ${JSON.stringify(item)} backwards: write the lower page first, such as "${to}-${from}".`);
  }
  return { from, to };
}

/**
 * The pages a selection names, ascending and each once. A page beyond the document is
 * `invalid_pages` too, naming the pages there are.
 */
export function selectPages(ranges: readonly PageRange[] | undefined, pageCount: number, fileName: string): number[] {
  if (ranges === undefined) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const pages = new Set<number>();
  for (const { from, to } of ranges) {
    const last = to === 'end' ? pageCount : to;
    const beyond = Math.max(from, last);
    if (beyond > pageCount) {
      throw invalidPages(`Page ${beyond} does not exist: ${fileName} has ${pageCount} ${pageCount === 1 ? 'page' : 'pages'}. Ask for pages 1-${pageCount}.`);
    }
    for (let page = from; page <= last; page += 1) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}

/** Pages as the shortest selection text: [1,2,3,5] is "1-3,5". */
export function formatPageRanges(pages: readonly number[]): string {
  const parts: string[] = [];
  let start: number | undefined;
  let previous: number | undefined;
  for (const page of pages) {
    if (start !== undefined && previous !== undefined && page === previous + 1) {
      previous = page;
      continue;
    }
    if (start !== undefined && previous !== undefined) parts.push(start === previous ? `${start}` : `${start}-${previous}`);
    start = page;
    previous = page;
  }
  if (start !== undefined && previous !== undefined) parts.push(start === previous ? `${start}` : `${start}-${previous}`);
  return parts.join(',');
}

function invalidPages(message: string): OneClawError {
  return new OneClawError('invalid_pages', message);
}

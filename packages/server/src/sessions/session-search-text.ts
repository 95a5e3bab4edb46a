/** Characters of a session's message text kept from its start, and from its latest messages, for list search. */
export const SEARCH_HEAD_CHARS = 8_000;
export const SEARCH_TAIL_CHARS = 8_000;

/**
 * What the session list searches in a session's messages: their text lower-cased, on one line,
 * capped so the list's memory stays bounded however long a session grows. It keeps the start
 * of the conversation (what it was about) and its latest part (what it is about now), at most
 * SEARCH_HEAD_CHARS + SEARCH_TAIL_CHARS characters; text between the two is not searchable.
 */
export class SessionSearchText {
  private head = '';
  private tail = '';

  add(text: string): void {
    const flat = normalizeForSearch(text);
    if (flat === '') return;
    if (this.head.length < SEARCH_HEAD_CHARS) {
      const joined = this.head === '' ? flat : `${this.head} ${flat}`;
      this.head = joined.slice(0, SEARCH_HEAD_CHARS);
      const rest = joined.slice(SEARCH_HEAD_CHARS);
      if (rest !== '') this.tail = rest.slice(-SEARCH_TAIL_CHARS);
      return;
    }
    this.tail = (this.tail === '' ? flat : `${this.tail} ${flat}`).slice(-SEARCH_TAIL_CHARS);
  }

  /** True when the text holds every term (terms are already normalised, see `searchTerms`). */
  has(term: string): boolean {
    return this.head.includes(term) || this.tail.includes(term);
  }

  clear(): void {
    this.head = '';
    this.tail = '';
  }
}

export function normalizeForSearch(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A query's words, each to be found somewhere (in any order) in the title or the messages. */
export function searchTerms(query: string): string[] {
  return normalizeForSearch(query)
    .split(' ')
    .filter((t) => t !== '');
}

import { appendSearchText, normalizeForSearch, type KeptText, type SearchTexts } from '../sessions/session-search-text';

/**
 * The session list's search texts before 2026-11-27, kept as the session-list bench's baseline:
 * the same kept text per session, in the heap (a Map), searched with `includes`. The head and
 * tail were `slice`s of the joined text, which V8 may keep as views of the whole joined string.
 */
export class HeapSearchTexts implements SearchTexts {
  private readonly rows = new Map<string, KeptText & { title: string }>();

  batch(apply: () => void): void {
    apply();
  }

  addText(sessionId: string, text: string): void {
    const row = this.rows.get(sessionId) ?? { title: '', head: '', tail: '' };
    this.rows.set(sessionId, { title: row.title, ...appendSearchText(row, text) });
  }

  clearText(sessionId: string): void {
    this.rows.set(sessionId, { title: this.rows.get(sessionId)?.title ?? '', head: '', tail: '' });
  }

  setTitle(sessionId: string, title: string): void {
    this.rows.set(sessionId, { head: '', tail: '', ...this.rows.get(sessionId), title: normalizeForSearch(title) });
  }

  forget(sessionId: string): void {
    this.rows.delete(sessionId);
  }

  sessionsWithAll(terms: readonly string[]): Set<string> {
    const found = new Set<string>();
    for (const [sessionId, row] of this.rows) {
      if (terms.every((term) => row.title.includes(term) || row.head.includes(term) || row.tail.includes(term))) found.add(sessionId);
    }
    return found;
  }

  close(): void {
    this.rows.clear();
  }
}

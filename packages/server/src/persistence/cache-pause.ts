import { OneClawError } from '@oneclaw/core';
import { isSqliteError } from '@oneclaw/event-store-sqlite';

/** How long a search cache that failed again right after being made anew is left alone. */
export const CACHE_PAUSE_MS = 30_000;

/**
 * The search caches kept in SQLite's temporary database (the session list's texts,
 * search_history's index) are made anew from the store when they fail. Failing again at once
 * means the cause is still there (a full disk, a temporary directory that cannot be written), so
 * for CACHE_PAUSE_MS searches answer `search_unavailable` at once, instead of each reading the
 * whole store twice more to fail the same way.
 */
export class CachePause {
  private until = 0;

  constructor(
    /** What is paused, as the start of a sentence ("The session search"). */
    private readonly what: string,
    /** What the user can do meanwhile, said after a failure ("Search again later."). */
    private readonly advice: string,
    /** Milliseconds on a clock that never steps back (a system clock set back would lengthen the pause). */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Runs `search` on the cache. On a SQLite error the cache is made anew (`rebuild`: it is only
   * a cache of the store) and the search runs once more, unless another search found the new one
   * failing meanwhile; failing again, the cache is dropped (never used half-written), the pause
   * starts, and the search answers `search_unavailable`. `closed`: the cache is closed for good,
   * so `search` answers that instead of the pause.
   */
  async run<T>(search: () => Promise<T>, rebuild: () => void, closed: boolean): Promise<T> {
    if (!closed) this.check();
    try {
      return await search();
    } catch (error) {
      if (!isSqliteError(error)) throw error;
      rebuild();
      this.check();
      try {
        return await search();
      } catch (again) {
        if (!isSqliteError(again)) throw again;
        rebuild();
        this.start();
        throw new OneClawError('search_unavailable', `${this.what} cannot be used right now (${again.code}). ${this.advice}`);
      }
    }
  }

  /** Throws `search_unavailable` while paused. */
  check(): void {
    const left = this.until - this.now();
    if (left <= 0) return;
    const seconds = Math.ceil(left / 1000);
    throw new OneClawError('search_unavailable', `${this.what} failed twice in a row just now and is tried again in ${seconds} s. Search again then.`, {
      retryAfterSeconds: seconds,
    });
  }

  /** The cache failed again right after it was made anew. */
  start(): void {
    this.until = this.now() + CACHE_PAUSE_MS;
  }
}

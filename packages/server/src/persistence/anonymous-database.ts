import Database from 'better-sqlite3';

/**
 * SQLite's anonymous temporary database: deleted as soon as it is opened, so nothing is left
 * behind, even after a crash. SQLite keeps its pages in a bounded cache and the rest in that
 * file (in SQLITE_TMPDIR, TMPDIR or /var/tmp). Used for caches of the store that would
 * otherwise grow in the heap with every session (the history search, the session list's search
 * text).
 */
export function openAnonymousDatabase(): Database.Database {
  const db = new Database('');
  // A cache of the store for this process: nothing to recover after a crash. SQLite's own
  // default page cache (2 MB) rather than better-sqlite3's 16 MB: memory is what this saves.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -2000');
  return db;
}

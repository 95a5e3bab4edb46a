import Database from 'better-sqlite3';

/**
 * SQLite's anonymous temporary database: deleted as soon as it is opened, so nothing is left
 * behind, even after a crash. SQLite keeps its pages in a bounded cache and the rest in that
 * file (in the first usable of SQLITE_TMPDIR, TMPDIR, /var/tmp, /usr/tmp, /tmp and the working
 * directory). Used for caches of the store that would otherwise grow in the heap with every
 * session (the history search, the session list's search text).
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

/** `setUp(db)` on a database just opened; if it fails, the database is closed, so nothing half-made stays open. */
export function setUpOrClose<T>(db: Database.Database, setUp: (db: Database.Database) => T): T {
  try {
    return setUp(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

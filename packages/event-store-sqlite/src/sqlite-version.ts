import Database from 'better-sqlite3';

/**
 * The SQLite library version the adapter runs on (the one compiled into better-sqlite3), for
 * benchmark headers and reports, so callers need no SQLite driver of their own.
 */
export function sqliteVersion(): string {
  const db = new Database(':memory:');
  try {
    return db.prepare('SELECT sqlite_version()').pluck().get() as string;
  } finally {
    db.close();
  }
}

/**
 * Duck-typed, not `instanceof Database.SqliteError`: the native addon keeps the error class of the
 * first copy of better-sqlite3 loaded in the process, so a second copy (a Jest module registry per
 * test file, a duplicated install) throws errors of a class it does not export.
 */
export function isSqliteError(error: unknown): error is Error & { code: string } {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === 'SqliteError' && typeof code === 'string' && code.startsWith('SQLITE_');
}

import path from 'node:path';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/**
 * Vite names built files `<name>-<hash>.<ext>` under assets/ (the hash is 8 or more URL-safe
 * characters). Such a name changes whenever the content does, so the file can be kept forever.
 */
const HASHED_NAME = /-[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/;

/**
 * The Cache-Control of a web UI file. Hashed assets are cached for a year without rechecking;
 * everything else (index.html above all, which names the current assets) is rechecked on every
 * load, so a new build is picked up at once. Judged on the path inside the web folder: the
 * folder's own location (say /srv/assets/oneclaw) must not make index.html immutable.
 */
export function webUiCacheControl(webDir: string, file: string): string {
  const inside = path.relative(webDir, file).split(path.sep);
  const hashed = inside.length === 2 && inside[0] === 'assets' && HASHED_NAME.test(inside[1] ?? '');
  return hashed ? IMMUTABLE : REVALIDATE;
}

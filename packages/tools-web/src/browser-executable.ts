import fs from 'node:fs';
import path from 'node:path';
import { OneClawError } from '@oneclaw/core';

/** Where Debian/Ubuntu (chromium, chromium-browser) and Google's package (google-chrome) install the browser. */
export const DEFAULT_BROWSER_PATHS: readonly string[] = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * The Chromium or Chrome binary the browser tool drives: the configured one (ONECLAW_BROWSER_PATH),
 * else the first default that exists. The server never downloads a browser.
 */
export function findBrowserExecutable(configured: string | undefined, candidates: readonly string[] = DEFAULT_BROWSER_PATHS): string {
  if (configured !== undefined) {
    const resolved = path.resolve(configured);
    if (isExecutableFile(resolved)) return resolved;
    throw new OneClawError(
      'browser_not_installed',
      `The browser at ONECLAW_BROWSER_PATH=${configured} does not exist or is not an executable file. ` +
        'Ask the operator to point ONECLAW_BROWSER_PATH at a Chromium or Chrome binary, or to install Chromium (Debian/Ubuntu: apt-get install chromium). ' +
        'Until then, use webfetch to read pages.',
    );
  }
  const found = candidates.find(isExecutableFile);
  if (found) return found;
  throw new OneClawError(
    'browser_not_installed',
    `No Chromium or Chrome is installed on the server (looked for ${candidates.join(', ')}). ` +
      'Ask the operator to install Chromium (Debian/Ubuntu: apt-get install chromium) or to set ONECLAW_BROWSER_PATH to a Chrome binary. ' +
      'Until then, use webfetch to read pages.',
  );
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

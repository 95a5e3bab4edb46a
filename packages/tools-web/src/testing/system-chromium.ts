import { existsSync } from 'node:fs';

/** Where Debian's chromium package puts the browser that the browser tool's tests drive. */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * Tests that drive the system Chromium run where it is installed, and always in CI: `.ci/run`
 * installs it, so a missing browser there is a failure, not a skip. Elsewhere (a fresh developer
 * machine) they are skipped, and the test summary prints `CHROMIUM_SKIP_REASON` as their name.
 */
export const chromiumAvailable: boolean = existsSync(SYSTEM_CHROMIUM) || process.env.CI === 'true';

export const CHROMIUM_SKIP_REASON = `skipped: no Chromium at ${SYSTEM_CHROMIUM} (apt-get install chromium to run these tests)`;

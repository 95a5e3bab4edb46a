import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { postgresBinDir, startTestPostgres, type TestPostgres, type TestPostgresOptions } from './test-postgres';

/** Why tests that need PostgreSQL cannot run here, or undefined when they can. */
export function postgresSkipReason(): string | undefined {
  return postgresBinDir() ? undefined : 'PostgreSQL binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)';
}

/**
 * A `describe` block with its own throwaway PostgreSQL cluster, started before its tests and
 * removed after them (so test files can run in parallel). `cluster()` gives the running one.
 * Without the binaries the block is skipped, with the reason in its name; in CI (`CI` set) it
 * fails instead, so a missing package cannot hide a whole suite.
 */
export function describeWithPostgres(title: string, body: (cluster: () => TestPostgres) => void, options: TestPostgresOptions = {}): void {
  const reason = postgresSkipReason();
  if (reason && !process.env.CI) {
    describe.skip(`${title}: skipped, ${reason}`, () => {
      it('needs a real PostgreSQL', () => undefined);
    });
    return;
  }
  describe(title, () => {
    let server: TestPostgres | undefined;
    beforeAll(async () => {
      server = await startTestPostgres(options);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
    }, 60_000);
    body(() => {
      if (!server) throw new Error('The test PostgreSQL did not start (see the beforeAll failure above).');
      return server;
    });
  });
}

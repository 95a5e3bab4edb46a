// A real, throwaway PostgreSQL for tests (Debian's binaries, a temp dir, a loopback port).
export { postgresBinDir, startTestPostgres, type TestPostgres, type TestPostgresOptions } from './test-postgres';
export { describeWithPostgres, postgresSkipReason } from './describe-with-postgres';

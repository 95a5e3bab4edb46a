import { describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { describeWithPostgres } from './testing';
import { PostgresEventStore } from './postgres-event-store';
import { failureReasonOf, redactPostgresUrl } from './postgres-errors';

// Every failure to reach or use PostgreSQL is a typed error with a stable code and reason, whose
// message says what to do and never carries the password of the URL.

type Failure = Error & { code?: string; details?: Record<string, unknown> };

async function failure(promise: Promise<unknown>): Promise<Failure> {
  try {
    await promise;
  } catch (error) {
    return error as Failure;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Everything about an error a log could print: message, stack, details, JSON. */
const printable = (error: Failure) => [error.message, error.stack ?? '', JSON.stringify(error), JSON.stringify(error.details ?? {}), String(error)].join('\n');

async function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('PostgreSQL URLs and options that cannot be used (no server needed)', () => {
  it('PG-12 a URL that is not postgres:// is invalid_config, and the message hides its password', async () => {
    for (const url of ['mysql://oneclaw:pa55-SECRET-word@db:3306/x', 'oneclaw:pa55-SECRET-word@db', 'postgres://oneclaw:pa55-SECRET-word@[bad']) {
      const error = await failure(PostgresEventStore.connect(url));
      expect(error).toMatchObject({ code: 'invalid_config' });
      expect(error.message).toContain('postgres://user:password@host:5432/database');
      expect(printable(error)).not.toContain('pa55-SECRET-word');
    }
  });

  it('PG-12 a bad schema name or pool size is invalid_config', async () => {
    expect(await failure(PostgresEventStore.connect('postgres://u@127.0.0.1/db', { schema: 'Robert"; DROP' }))).toMatchObject({ code: 'invalid_config' });
    expect(await failure(PostgresEventStore.connect('postgres://u@127.0.0.1/db', { poolSize: 0 }))).toMatchObject({ code: 'invalid_config' });
  });

  it('PG-12 redaction removes the user:password part and a password parameter', () => {
    expect(redactPostgresUrl('postgres://u:p%40ss@h:5432/db?sslmode=require&password=x2')).toBe('postgres://***@h:5432/db?sslmode=require&password=***');
  });

  it('PG-12 driver errors are told apart by code, not only by message', () => {
    expect(failureReasonOf(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe('connection_refused');
    expect(failureReasonOf(Object.assign(new Error('x'), { code: 'ENOTFOUND' }))).toBe('host_not_found');
    expect(failureReasonOf(Object.assign(new Error('x'), { code: '28P01', severity: 'FATAL' }))).toBe('auth_failed');
    expect(failureReasonOf(Object.assign(new Error('x'), { code: '53300', severity: 'FATAL' }))).toBe('too_many_connections');
    expect(failureReasonOf(Object.assign(new Error('x'), { code: '57P03', severity: 'FATAL' }))).toBe('connection_refused');
    expect(failureReasonOf(Object.assign(new Error('x'), { code: '53100', severity: 'ERROR' }))).toBe('server_error');
    expect(failureReasonOf(new Error('Connection terminated unexpectedly'))).toBe('connection_lost');
    // A programming error stays what it is.
    expect(failureReasonOf(new TypeError('x is not a function'))).toBeUndefined();
  });

  it('PG-12 nothing listening at the port is storage_unavailable / connection_refused, naming host and port but not the password', async () => {
    const port = await unusedPort();
    const error = await failure(PostgresEventStore.connect(`postgres://oneclaw:pa55-SECRET-word@127.0.0.1:${port}/oneclaw`));
    expect(error).toMatchObject({ code: 'storage_unavailable', details: { reason: 'connection_refused', target: `127.0.0.1:${port}/oneclaw` } });
    expect(error.message).toContain('Check that PostgreSQL is running');
    expect(printable(error)).not.toContain('pa55-SECRET-word');
  });
});

describeWithPostgres('PostgreSQL refusing the store', (cluster) => {
  it('PG-12 a wrong password is storage_unavailable / auth_failed; neither the wrong nor the right password appears in anything printable', async () => {
    const database = new URL(await cluster().createDatabase()).pathname.slice(1);
    const wrong = 'Wr0ng-pa55word-7f3e';
    const error = await failure(PostgresEventStore.connect(`postgres://postgres:${wrong}@127.0.0.1:${cluster().port}/${database}`));
    expect(error).toMatchObject({ code: 'storage_unavailable', details: { reason: 'auth_failed', pgCode: '28P01' } });
    expect(error.message).toContain('Check the user name and password in ONECLAW_POSTGRES_URL');
    expect(printable(error)).not.toContain(wrong);
    expect(printable(error)).not.toContain(cluster().password);
  });

  it('PG-12 a database that does not exist is storage_unavailable / database_missing, saying to create it', async () => {
    const error = await failure(PostgresEventStore.connect(cluster().url('no_such_db')));
    expect(error).toMatchObject({ code: 'storage_unavailable', details: { reason: 'database_missing', pgCode: '3D000' } });
    expect(error.message).toContain('Create the database');
    expect(printable(error)).not.toContain(cluster().password);
  });

  it('PG-12 a user without the right to create the schema is storage_unavailable / permission_denied', async () => {
    const url = await cluster().createDatabase();
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query("CREATE ROLE reader LOGIN PASSWORD 'reader-pass-91'; REVOKE CREATE ON DATABASE " + `"${new URL(url).pathname.slice(1)}"` + ' FROM PUBLIC');
    } finally {
      await admin.end();
    }
    const asReader = new URL(url);
    asReader.username = 'reader';
    asReader.password = 'reader-pass-91';
    const error = await failure(PostgresEventStore.connect(asReader.toString()));
    expect(error).toMatchObject({ code: 'storage_unavailable', details: { reason: 'permission_denied', pgCode: '42501' } });
    expect(printable(error)).not.toContain('reader-pass-91');
  });
});

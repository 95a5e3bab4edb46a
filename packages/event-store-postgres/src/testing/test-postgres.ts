import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A real PostgreSQL for tests: Debian's binaries (`/usr/lib/postgresql/<n>/bin`), a new cluster
 * in a temp dir, listening on a free loopback port (and a Unix socket in the temp dir), with
 * password (SCRAM) authentication over TCP so tests can check wrong passwords for real.
 * PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` system user.
 */
export interface TestPostgres {
  /** The loopback port; it stays the same across `restart()`. */
  readonly port: number;
  /** The superuser's password (user `postgres`), random per cluster. */
  readonly password: string;
  /** The cluster's directory (owned by the user the server runs as). */
  readonly dir: string;
  /** `postgres://postgres:<password>@127.0.0.1:<port>/<database>` (default database `postgres`). */
  url(database?: string): string;
  /** Creates an empty database (a new random name unless given) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** The postmaster's process id while it runs. */
  pid(): number | undefined;
  /** Fast shutdown (SIGINT): open transactions are rolled back, committed ones are on disk. */
  stop(): Promise<void>;
  /** SIGKILL of the postmaster, for crash tests: the next `restart()` runs crash recovery. */
  kill(): Promise<void>;
  /** Starts the stopped or killed cluster again on the same port and waits until it accepts connections. */
  restart(): Promise<void>;
  /** Stops the server (if running) and removes its directory. */
  close(): Promise<void>;
  /** The server's own log (stderr), the last 64 KB. */
  log(): string;
}

export interface TestPostgresOptions {
  /** Extra `-c name=value` server settings, e.g. `{ max_connections: '200' }`. */
  readonly settings?: Readonly<Record<string, string>>;
}

const LOG_LIMIT = 64 * 1024;

/** The newest PostgreSQL `bin` directory on this machine (`ONECLAW_POSTGRES_BIN_DIR` overrides), or undefined. */
export function postgresBinDir(): string | undefined {
  const explicit = process.env.ONECLAW_POSTGRES_BIN_DIR;
  if (explicit) return existsSync(path.join(explicit, 'initdb')) ? explicit : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

/** uid/gid to run the server as: ourselves, or the `postgres` user when we are root. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('PostgreSQL refuses to run as root and there is no `postgres` user: create one (useradd --system postgres) or run the tests as another user.');
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every started cluster, so a test process that exits without `close()` does not leave servers behind. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** Creates and starts a throwaway cluster. Throws with the reason when the binaries are missing. */
export async function startTestPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error(
      "PostgreSQL binaries not found under /usr/lib/postgresql/*/bin: install Debian's postgresql package (apt-get install postgresql), or set ONECLAW_POSTGRES_BIN_DIR.",
    );
  const user = serverUser();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-pg-'));
  const dataDir = path.join(dir, 'data');
  const password = randomBytes(12).toString('hex');
  const asServer = user ? { uid: user.uid, gid: user.gid } : {};
  // The server's environment: no PG* variables of ours leak into it, and a locale that always exists.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', HOME: dir };
  try {
    if (user) chownSync(dir, user.uid, user.gid);
    const pwfile = path.join(dir, 'pwfile');
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (user) chownSync(pwfile, user.uid, user.gid);
    await run(
      path.join(bin, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C', '--no-sync'],
      {
        ...asServer,
        env,
      },
    );
    rmSync(pwfile);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = '';
  let port = await freePort();
  const settings = { listen_addresses: '127.0.0.1', shared_buffers: '32MB', max_connections: '100', ...options.settings };
  const url = (database = 'postgres') => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;

  const spawnServer = () => {
    const args = ['-D', dataDir, '-p', String(port), '-k', dir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    const started = spawn(path.join(bin, 'postgres'), args, { ...asServer, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const append = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-LOG_LIMIT));
    started.stdout?.on('data', append);
    started.stderr?.on('data', append);
    child = started;
    running.add(started);
    exited = new Promise((resolve) =>
      started.once('exit', () => {
        running.delete(started);
        resolve();
      }),
    );
    return started;
  };

  /** Starts the postmaster and polls until it accepts a connection; retries what a previous server left behind. */
  const start = async (mayChangePort: boolean) => {
    for (let attempt = 0; ; attempt++) {
      const logFrom = output.length;
      const started = spawnServer();
      const ready = await waitUntilReady(url(), started);
      if (ready) return;
      const log = output.slice(logFrom);
      await exited;
      // Another process took the port between freePort() and the bind.
      if (mayChangePort && /could not (bind|create listen socket)|Address already in use/i.test(log) && attempt < 5) {
        port = await freePort();
        continue;
      }
      // After a SIGKILL, the old backends exit on their own once they notice the postmaster is
      // gone; until then the new postmaster refuses to start on their shared memory.
      if (/already in use|already exists|is another postmaster/i.test(log) && attempt < 400) {
        await pause(25);
        continue;
      }
      throw new Error(`PostgreSQL did not start (exit ${String(started.exitCode ?? started.signalCode)}):\n${log.slice(-4000)}`);
    }
  };

  installExitHook();
  try {
    await start(true);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const isRunning = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const signal = async (sig: NodeJS.Signals) => {
    if (isRunning()) child?.kill(sig);
    await exited;
  };

  return {
    get port() {
      return port;
    },
    password,
    dir,
    url,
    async createDatabase(name = `t_${randomBytes(6).toString('hex')}`) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    pid: () => (isRunning() ? child?.pid : undefined),
    stop: () => signal('SIGINT'),
    kill: () => signal('SIGKILL'),
    async restart() {
      if (isRunning()) throw new Error('restart(): the server is still running; stop() or kill() it first.');
      await start(false);
    },
    async close() {
      await signal('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => output,
  };
}

/** Polls until a connection works (true), or the server exits (false). */
async function waitUntilReady(url: string, server: ChildProcess): Promise<boolean> {
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) return false;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      await pause(25);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

function run(file: string, args: string[], options: { uid?: number; gid?: number; env: Record<string, string> }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(file)} failed (exit ${String(code)}):\n${output.slice(-4000)}`))));
  });
}

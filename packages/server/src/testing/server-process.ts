import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';

// The server runs as a real child process from the TypeScript source (swc require hook), so a
// test can kill it with SIGKILL: nothing gets to run on the way out.
const LOADER = path.resolve(__dirname, '../../../../scripts/register-typescript.js');
// Compiled (dist/testing, as the benchmarks run it): the compiled dist/main.js, no loader.
const FROM_SOURCE = __filename.endsWith('.ts');
const MAIN_ARGS = FROM_SOURCE ? ['-r', LOADER, path.resolve(__dirname, '../main.ts')] : [path.resolve(__dirname, '../main.js')];

export interface ServerProcessOptions {
  /** A built entry point (e.g. `dist/main.js`) to run instead of the TypeScript source (no swc hook). */
  readonly main?: string;
  /** Node flags put before the script, e.g. heap limits. */
  readonly nodeArgs?: readonly string[];
}

export interface ServerProcessEnvOptions {
  readonly dataDir: string;
  readonly token: string;
  /** A FAKE Anthropic model to talk to. No ONECLAW_PROVIDER is set: the server picks Anthropic as the first provider with a key. */
  readonly anthropic?: { readonly key: string; readonly url: string };
}

/**
 * The environment a server process test starts from: its data directory, a port the OS picks
 * (`url()` reads it from the "listening on" line, printed at any log level), its API token,
 * warnings only in the log, and the FAKE Anthropic model when given. What else a test needs it
 * spreads after this, at the call site, where it can be seen.
 */
export function serverProcessEnv(options: ServerProcessEnvOptions): Record<string, string> {
  return {
    ONECLAW_DATA_DIR: options.dataDir,
    PORT: '0',
    ONECLAW_API_TOKEN: options.token,
    ...(options.anthropic ? { ANTHROPIC_API_KEY: options.anthropic.key, ANTHROPIC_BASE_URL: options.anthropic.url } : {}),
    ONECLAW_LOG: 'warn',
  };
}

/** A real server process (main.ts) with the given environment, its output captured. */
export class ServerProcess {
  private output = '';
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<unknown>;

  constructor(env: Record<string, string>, options: ServerProcessOptions = {}) {
    const script = options.main ? [options.main] : MAIN_ARGS;
    this.child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...script], { env: { ...process.env, ...env } });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) => this.child.on('close', resolve));
  }

  /** Everything the process printed so far (stdout and stderr), e.g. its log lines. */
  get printed(): string {
    return this.output;
  }

  /** The URL the server printed once listening (after start-up reconciliation). */
  async url(): Promise<string> {
    for (let i = 0; i < 600; i++) {
      const match = /listening on (http:\/\/\S+)/.exec(this.output);
      if (match) return match[1] as string;
      if (this.child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`server did not start:\n${this.output.slice(-2000)}`);
  }

  /** Everything the process printed so far (stdout and stderr). */
  logText(): string {
    return this.output;
  }

  /** SIGKILL, and wait until the process is gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}

/**
 * An authorized JSON call to a server process; resolves with the parsed body. Each call has a
 * connection of its own: a kept-alive one can be closed by the server's keep-alive timer just as
 * the next request goes out on it (ECONNRESET), as happened after a heap snapshot had blocked
 * the server for seconds (CI run 58).
 */
export function callServer(url: string, token: string, method: string, route: string, body?: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const request = http.request(url + route, { method, agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Polls until `check` returns a value (not undefined); fails after `attempts` tries. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, attempts = 800): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** The server processes a test started, killed together when it ends. */
export class ServerProcessGroup {
  private readonly started: ServerProcess[] = [];
  private readonly cleanUps: (() => unknown)[] = [];

  /** Something to undo once the servers are gone (close the fake model, remove the data directory). */
  also(cleanUp: () => unknown): void {
    this.cleanUps.push(cleanUp);
  }

  start(env: Record<string, string>, options: ServerProcessOptions = {}): ServerProcess {
    const server = new ServerProcess(env, options);
    this.started.push(server);
    return server;
  }

  async killAll(): Promise<void> {
    await Promise.all(this.started.splice(0).map((s) => s.kill()));
    for (const cleanUp of this.cleanUps.splice(0)) await cleanUp();
  }
}

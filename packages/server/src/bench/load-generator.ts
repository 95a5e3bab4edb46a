/**
 * The F5 load: autocannon sending turns to a server, each request on a session no request in
 * flight holds (a session runs one turn at a time). By default it runs in a child process, as an
 * outside load test would: the server's event loop then carries the server's work only. (Not a
 * worker thread: there autocannon answers with its raw per-worker result, expecting to aggregate
 * it itself.) `where: 'main'` runs it in the calling thread, as the bench did before 2026-11-26.
 */
import { fork, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

const ROLE_ENV = 'ONECLAW_BENCH_ROLE';

export interface LoadOptions {
  readonly url: string;
  readonly token: string;
  /** One connection per session: the pool each request takes its session from. */
  readonly sessionIds: readonly string[];
  /** Appended to each request's path (e.g. `?include=session`). */
  readonly query: string;
  readonly message: string;
}

export interface LoadRun {
  readonly result: autocannon.Result;
  /** Latency of every request but each session's first in this run, from setupRequest to onResponse (ms). */
  readonly steady: readonly number[];
  /**
   * From the run's first request built to its last answer (ms): autocannon's own `duration` ends
   * at its next 1 s sample tick after the last answer, which made a 6.1 s run and a 7.0 s run
   * both "7 s".
   */
  readonly elapsedMs: number;
  readonly answers: number;
  /** CPU time of the load generator's process during the run (ms); undefined when it runs in the caller's thread. */
  readonly cpuMs?: number;
}

export interface LoadGenerator {
  /** Sends `amount` requests over one connection per session, then resolves. */
  run(amount: number): Promise<LoadRun>;
  /** 2xx answers per session over every run so far (for the loss check). */
  answered(): Promise<ReadonlyMap<string, number>>;
  /** Requests that found no free session (a bench bug if not 0). */
  poolMisses(): Promise<number>;
  close(): Promise<void>;
}

export async function startLoadGenerator(options: LoadOptions, where: 'process' | 'main'): Promise<LoadGenerator> {
  if (where === 'main') {
    const load = new SessionLoad(options);
    return {
      run: (amount) => load.run(amount),
      answered: () => Promise.resolve(new Map(load.answered)),
      poolMisses: () => Promise.resolve(load.misses),
      close: () => Promise.resolve(),
    };
  }
  const child = fork(__filename, [], { env: { ...process.env, [ROLE_ENV]: 'load-generator' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // One question at a time: each answer is the next message.
  const ask = <T>(message: Record<string, unknown>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`load generator exited (code ${code})`));
      child.once('exit', onExit);
      child.once('message', (answer: { error?: string } & T) => {
        child.off('exit', onExit);
        if (answer.error !== undefined) reject(new Error(`load generator: ${answer.error}`));
        else resolve(answer);
      });
      child.send(message);
    });
  await ask({ type: 'start', options });
  return {
    run: (amount) => ask<LoadRun>({ type: 'run', amount }),
    answered: async () => new Map((await ask<{ answered: [string, number][] }>({ type: 'answered' })).answered),
    poolMisses: async () => (await ask<{ misses: number }>({ type: 'misses' })).misses,
    close: () => stop(child),
  };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

/** The session pool and autocannon, in whichever process runs the load. */
class SessionLoad {
  private readonly free: string[];
  readonly answered: Map<string, number>;
  misses = 0;

  constructor(private readonly options: LoadOptions) {
    this.free = [...options.sessionIds];
    this.answered = new Map(options.sessionIds.map((id) => [id, 0]));
  }

  run(amount: number): Promise<LoadRun> {
    const { url, token, query, message, sessionIds } = this.options;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const seen = new Set<string>();
    const steady: number[] = [];
    let first = Infinity;
    let last = -Infinity;
    let answers = 0;
    const request: autocannon.Request = {
      method: 'POST',
      headers,
      setupRequest: (req, context) => {
        const id = this.free.pop() ?? `missing-${++this.misses}`;
        const sentAt = performance.now();
        first = Math.min(first, sentAt);
        Object.assign(context, { sessionId: id, sentAt });
        return { ...req, method: 'POST', headers, path: `/api/sessions/${id}/messages${query}`, body: JSON.stringify({ text: message }) };
      },
      onResponse: (status, _body, context) => {
        last = performance.now();
        answers += 1;
        const { sessionId: id, sentAt } = context as { sessionId?: string; sentAt?: number };
        if (!id || !this.answered.has(id)) return;
        if (status >= 200 && status < 300) this.answered.set(id, (this.answered.get(id) ?? 0) + 1);
        // The pool hands a returned session straight back to the same connection (LIFO), so a
        // session's first request in a run is its connection's first: built before the connection
        // opened, it waits out the connection burst. Later ones are built right before being written.
        if (sentAt !== undefined && seen.has(id)) steady.push(performance.now() - sentAt);
        seen.add(id);
        this.free.push(id);
      },
    };
    // `amount` splits the total evenly over the connections and, unlike maxConnectionRequests,
    // turns off autocannon's 10 s duration timer, which would close connections with turns in
    // flight (a cut-off turn records a cancellation).
    const cannon = { url, connections: sessionIds.length, pipelining: 1, timeout: 30, requests: [request], amount };
    return new Promise((resolve, reject) => {
      autocannon(cannon, (error, result) => (error ? reject(error) : resolve({ result, steady, elapsedMs: last - first, answers })));
    });
  }
}

if (process.env[ROLE_ENV] === 'load-generator' && process.send) {
  let load: SessionLoad | undefined;
  const reply = (answer: unknown) => process.send?.(answer);
  process.on('message', (message: { type: string; amount?: number; options?: LoadOptions }) => {
    if (message.type === 'start' && message.options) {
      load = new SessionLoad(message.options);
      reply({ started: true });
    } else if (!load) {
      reply({ error: 'not started' });
    } else if (message.type === 'run') {
      const before = process.cpuUsage();
      load.run(message.amount ?? 0).then(
        (run) => {
          const cpu = process.cpuUsage(before);
          reply({ ...run, cpuMs: (cpu.user + cpu.system) / 1000 });
        },
        (error: unknown) => reply({ error: String(error) }),
      );
    } else if (message.type === 'answered') {
      reply({ answered: [...load.answered] });
    } else if (message.type === 'misses') {
      reply({ misses: load.misses });
    }
  });
}

import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { BridgeHostConfig } from '../bridges/create-bridge-host';
import { googleNotConfigured } from './bridge-host';
import { INITIAL_HEAP_BYTES } from './capped-wasm-memory';
import type { JsCall, JsCallErrorType, JsCallOutcome, JsRunner, SandboxLimitKind } from './js-call';
import type { FromWorker, ToWorker, WorkerCall } from './worker-protocol';

export interface WorkerJsRunnerOptions {
  /** Serializable bridge settings; each worker builds its own bridge host from them. */
  readonly bridge: BridgeHostConfig;
  /** Shared by all workers (one token cache, one refresh at a time). */
  readonly googleAccessToken?: (signal: AbortSignal) => Promise<string>;
  /** Calls that run at once, one per worker thread (default 4; the server reads ONECLAW_JS_WORKERS). */
  readonly maxWorkers?: number;
  /** Calls that may wait for a worker, all sessions together, before new ones are refused as `busy` (default 100). */
  readonly maxQueue?: number;
  /** How long a call may wait for a worker before it is refused as `busy` (default 120 s, the longest js_eval timeout). */
  readonly maxWaitMs?: number;
  /** How long past its timeout (or its cancel) a call may take to stop before its worker is killed (default 1000 ms). */
  readonly graceMs?: number;
  /** An idle worker above the first is stopped after this long (default 30 s). */
  readonly idleMs?: number;
  /** Native stack of each worker thread; QuickJS's own stack limit must stay well below it (default 8 MB). */
  readonly workerStackMb?: number;
  /**
   * V8 heap of each worker (default 128 MB): the bridge host and the strings that cross the
   * bridges live there. A worker that runs out is ended and its call is `sandbox_limit` (memory).
   */
  readonly workerHeapMb?: number;
  /**
   * V8's young generation of each worker, where short-lived objects are made (default 6 MB).
   * Without a limit V8 sizes it as for a main thread (semi-spaces growing to 16 MB) and grows it
   * under load; a worker's objects are few and short-lived (messages, the bridges' strings; the
   * guest's own memory is QuickJS's WebAssembly heap), so the default lowers the server's RSS by
   * about 25 MB after start and 35 MB at its peak with four workers, at no measured cost (docs/memory.md).
   */
  readonly workerYoungGenerationMb?: number;
  /**
   * A worker whose QuickJS heap is larger than this after a call is retired (default 16 MiB, the
   * heap's initial size): WebAssembly memory never shrinks, so only a new worker gives it back.
   */
  readonly recycleHeapBytes?: number;
  /**
   * Each worker prepares a fresh QuickJS runtime for its next call between calls, and releases a
   * call's runtime after answering (default true, F3). False: the old path, where a call makes
   * and releases its runtime while the caller waits; the benchmark's baseline.
   */
  readonly prepareRuntimes?: boolean;
}

/** How long a new worker may take to load its QuickJS module before the call's own timeout starts. */
const WORKER_START_ALLOWANCE_MS = 10_000;
/** Calls without a session share this one. */
const NO_SESSION = '';

interface Slot {
  readonly worker: Worker;
  /** Shared with the worker: the id of the call to cancel. Read by its interrupt handler, so a
   * guest spinning in a loop (which blocks the worker's message queue) still stops. */
  readonly cancelFlag: Int32Array;
  ready: boolean;
  busy: Running | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

interface Running {
  readonly id: number;
  readonly call: JsCall;
  readonly session: string;
  readonly started: number;
  readonly resolve: (outcome: JsCallOutcome) => void;
  watchdog: NodeJS.Timeout | undefined;
  readonly onAbort: () => void;
}

interface Queued {
  readonly call: JsCall;
  readonly session: string;
  readonly resolve: (outcome: JsCallOutcome) => void;
  /** Ends the wait: clears its timer and abort listener. */
  settle: () => void;
}

/**
 * Runs each call in a pool of worker threads, one call per worker at a time. The interrupt
 * handler stops guest code that runs too long, but not a guest stuck in one long native
 * operation (`new Array(1e9).join('')`: quickjs-emscripten#219); the watchdog here is the last
 * resort: when a call outlives its timeout by `graceMs`, its worker is terminated, the call ends
 * as `timeout`, and a new worker takes the next call. Other calls run in other workers and are
 * not affected (SBX-03).
 *
 * Workers are shared fairly between sessions: waiting calls are served round-robin by session,
 * and no session may hold more than all workers but one, so another session's call never waits
 * behind one session's long calls. A call's
 * timeout starts when it starts running; the wait for a worker is bounded separately
 * (`maxQueue`, `maxWaitMs`), and either bound answers `busy`.
 */
export class WorkerJsRunner implements JsRunner {
  private readonly slots: Slot[] = [];
  /** Waiting calls by session; the map's order is the round-robin order. */
  private readonly waiting = new Map<string, Queued[]>();
  private waitingCount = 0;
  private readonly runningBySession = new Map<string, number>();
  private readonly maxWorkers: number;
  private readonly maxQueue: number;
  private readonly maxWaitMs: number;
  private readonly graceMs: number;
  private readonly idleMs: number;
  private readonly recycleHeapBytes: number;
  private nextId = 1;
  private closed = false;
  /** Workers killed by the watchdog or lost to a crash, for tests and metrics. */
  restarts = 0;
  /** Workers retired after a call because their QuickJS heap grew, for tests and metrics. */
  recycled = 0;

  constructor(private readonly options: WorkerJsRunnerOptions) {
    this.maxWorkers = Math.max(1, Math.floor(options.maxWorkers ?? 4));
    this.maxQueue = Math.max(0, options.maxQueue ?? 100);
    this.maxWaitMs = options.maxWaitMs ?? 120_000;
    this.graceMs = options.graceMs ?? 1000;
    this.idleMs = options.idleMs ?? 30_000;
    this.recycleHeapBytes = options.recycleHeapBytes ?? INITIAL_HEAP_BYTES;
  }

  get workerCount(): number {
    return this.slots.length;
  }

  /** The V8 limits each running worker has, as Node reports them (for tests and diagnostics). */
  workerResourceLimits(): ResourceLimits[] {
    return this.slots.map((slot) => slot.worker.resourceLimits ?? {});
  }

  /** Calls waiting for a worker, all sessions together. */
  get queueLength(): number {
    return this.waitingCount;
  }

  run(call: JsCall): Promise<JsCallOutcome> {
    if (this.closed) return Promise.resolve(failed('cancelled', 'The JavaScript sandbox is shut down.'));
    if (call.signal?.aborted) return Promise.resolve(failed('cancelled', 'The call was cancelled before it started.'));
    return new Promise((resolve) => {
      const session = call.sessionId ?? NO_SESSION;
      if (this.waitingCount >= this.maxQueue && !this.canStartNow(session)) {
        resolve(
          failed(
            'busy',
            `The JavaScript sandbox is busy: all ${this.maxWorkers} workers are taken and ${this.waitingCount} calls are already waiting. ` +
              'Try again in a moment, or run fewer JavaScript tools at once.',
          ),
        );
        return;
      }
      this.enqueue({ call, session, resolve, settle: () => {} });
      this.drain();
    });
  }

  /**
   * Starts one worker and waits until its QuickJS module is loaded, so the first tool call after
   * a server start does not pay for it (about 0.2 s on a 2-core machine).
   */
  async warmUp(): Promise<void> {
    if (this.closed) return;
    const slot = this.slots[0] ?? this.spawn();
    if (slot.ready) return;
    await new Promise<void>((resolve) => {
      const onMessage = (message: FromWorker) => {
        if (message.type !== 'ready') return;
        slot.worker.off('message', onMessage);
        slot.worker.off('exit', resolve);
        resolve();
      };
      slot.worker.on('message', onMessage);
      slot.worker.once('exit', () => resolve());
    });
    this.scheduleIdle(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.waiting.values()) {
      for (const queued of queue) {
        queued.settle();
        queued.resolve(failed('cancelled', 'The JavaScript sandbox is shutting down.'));
      }
    }
    this.waiting.clear();
    this.waitingCount = 0;
    await Promise.all(
      [...this.slots].map(async (slot) => {
        if (slot.busy) this.finish(slot, failed('cancelled', 'The JavaScript sandbox is shutting down.'));
        this.remove(slot);
        await slot.worker.terminate();
      }),
    );
  }

  // ---- queue -------------------------------------------------------------------------------------

  private enqueue(queued: Queued): void {
    const { call, session } = queued;
    const waitTimer = setTimeout(() => {
      if (!this.dequeue(queued)) return;
      queued.resolve(failed('busy', `The JavaScript sandbox is busy: the call waited ${this.maxWaitMs} ms for a free worker and was not started. Try again in a moment.`));
    }, this.maxWaitMs);
    waitTimer.unref();
    const onAbort = () => {
      if (this.dequeue(queued)) queued.resolve(failed('cancelled', 'The call was cancelled before it started.'));
    };
    call.signal?.addEventListener('abort', onAbort, { once: true });
    queued.settle = () => {
      clearTimeout(waitTimer);
      call.signal?.removeEventListener('abort', onAbort);
    };
    const queue = this.waiting.get(session);
    if (queue) queue.push(queued);
    else this.waiting.set(session, [queued]);
    this.waitingCount += 1;
  }

  /** Takes a call out of the queue; false if it was no longer there. */
  private dequeue(queued: Queued): boolean {
    const queue = this.waiting.get(queued.session);
    const index = queue ? queue.indexOf(queued) : -1;
    if (!queue || index < 0) return false;
    queue.splice(index, 1);
    if (queue.length === 0) this.waiting.delete(queued.session);
    this.waitingCount -= 1;
    queued.settle();
    return true;
  }

  /**
   * How many workers one session may hold: all but one (a pool of one is shared by turns). Calls
   * cannot be pre-empted, so a session allowed every worker would make the next session wait for
   * one of its calls to end, up to that call's timeout; keeping one worker out of any single
   * session's reach lets another session's call start at once. The price: one session runs at
   * most `maxWorkers - 1` JavaScript calls at a time.
   */
  private get sessionCap(): number {
    return Math.max(1, this.maxWorkers - 1);
  }

  private canStartNow(session: string): boolean {
    return (this.runningBySession.get(session) ?? 0) < this.sessionCap && this.hasFreeSlot();
  }

  private hasFreeSlot(): boolean {
    return this.slots.some((s) => !s.busy) || this.slots.length < this.maxWorkers;
  }

  /** The next call to start: sessions in round-robin order, skipping those at their cap. */
  private nextQueued(): Queued | undefined {
    for (const [session, queue] of this.waiting) {
      if ((this.runningBySession.get(session) ?? 0) >= this.sessionCap) continue;
      const next = queue[0] as Queued;
      this.dequeue(next);
      // Served: the session goes to the back of the round.
      const rest = this.waiting.get(session);
      if (rest) {
        this.waiting.delete(session);
        this.waiting.set(session, rest);
      }
      return next;
    }
    return undefined;
  }

  private drain(): void {
    while (!this.closed && this.hasFreeSlot()) {
      const next = this.nextQueued();
      if (!next) break;
      this.start(this.freeSlot() as Slot, next);
    }
    for (const slot of this.slots) if (!slot.busy) this.scheduleIdle(slot);
  }

  // ---- running -------------------------------------------------------------------------------------

  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((s) => !s.busy);
    if (idle) return idle;
    if (this.slots.length < this.maxWorkers) return this.spawn();
    return undefined;
  }

  private start(slot: Slot, { call, session, resolve }: Queued): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    const id = this.nextId++;
    const running: Running = {
      id,
      call,
      session,
      started: Date.now(),
      resolve,
      watchdog: undefined,
      onAbort: () => {
        Atomics.store(slot.cancelFlag, 0, id);
        this.post(slot, { type: 'cancel', id });
        // A worker still loading its module cannot answer a cancel yet: its grace starts when it
        // is ready (the start allowance below still bounds a worker that never gets there).
        if (slot.ready) this.arm(slot, running, this.graceMs, 'cancelled');
      },
    };
    slot.busy = running;
    this.runningBySession.set(session, (this.runningBySession.get(session) ?? 0) + 1);
    // A worker still loading its module starts the guest's clock late (its deadline is set when
    // it starts running), so the watchdog's clock starts when the worker is ready.
    if (slot.ready) this.armTimeout(slot, running);
    else this.arm(slot, running, WORKER_START_ALLOWANCE_MS + call.timeoutMs + this.graceMs, 'timeout');
    call.signal?.addEventListener('abort', running.onAbort, { once: true });
    const workerCall: WorkerCall = {
      fileName: call.script.fileName,
      code: call.script.sliceFor(call.functionName),
      declared: call.script.functionNames?.has(call.functionName) === true,
      functionName: call.functionName,
      params: call.params,
      env: call.env,
      timeoutMs: call.timeoutMs,
      ...(call.limits ? { limits: call.limits } : {}),
    };
    this.post(slot, { type: 'run', id, call: workerCall });
  }

  private armTimeout(slot: Slot, running: Running): void {
    this.arm(slot, running, running.call.timeoutMs + this.graceMs, 'timeout');
  }

  /** Kills the worker if the call has not answered within `ms`. */
  private arm(slot: Slot, running: Running, ms: number, reason: 'timeout' | 'cancelled'): void {
    if (running.watchdog) clearTimeout(running.watchdog);
    running.watchdog = setTimeout(() => {
      if (slot.busy !== running) return;
      this.restarts += 1;
      const message =
        reason === 'timeout'
          ? `The JavaScript tool did not finish within ${running.call.timeoutMs} ms and did not stop; its sandbox was terminated.`
          : 'The call was cancelled; its sandbox did not stop and was terminated.';
      this.finish(slot, failed(reason, message, Date.now() - running.started));
      this.remove(slot);
      void slot.worker.terminate();
      this.drain();
    }, ms);
  }

  /** Ends the slot's call; `delivered` (default: now) is when its caller gets the outcome. */
  private finish(slot: Slot, outcome: JsCallOutcome, delivered: Promise<unknown> = Promise.resolve()): void {
    const running = slot.busy;
    if (!running) return;
    slot.busy = undefined;
    const count = (this.runningBySession.get(running.session) ?? 1) - 1;
    if (count > 0) this.runningBySession.set(running.session, count);
    else this.runningBySession.delete(running.session);
    if (running.watchdog) clearTimeout(running.watchdog);
    running.call.signal?.removeEventListener('abort', running.onAbort);
    void delivered.then(() => running.resolve(outcome));
  }

  private scheduleIdle(slot: Slot): void {
    if (slot.idleTimer || this.slots.length <= 1) return;
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = undefined;
      if (slot.busy || this.slots.length <= 1) return;
      this.remove(slot);
      void slot.worker.terminate();
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  // ---- workers ---------------------------------------------------------------------------------

  private spawn(): Slot {
    const entry = workerEntry();
    const cancelFlag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(entry.code, {
      eval: true,
      workerData: { bridge: this.options.bridge, cancelFlag, prepareRuntimes: this.options.prepareRuntimes ?? true },
      resourceLimits: {
        stackSizeMb: this.options.workerStackMb ?? 8,
        maxOldGenerationSizeMb: this.options.workerHeapMb ?? 128,
        maxYoungGenerationSizeMb: this.options.workerYoungGenerationMb ?? 6,
      },
      stdout: true,
      stderr: true,
    });
    // Guest console output is captured per call; anything else a worker prints is dropped, so
    // nothing reaches the server's stdout unredacted.
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker, cancelFlag, ready: false, busy: undefined, idleTimer: undefined };
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    worker.on('error', (error) => this.lost(slot, error));
    worker.on('exit', () => this.lost(slot));
    this.slots.push(slot);
    return slot;
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    switch (message.type) {
      case 'ready':
        slot.ready = true;
        if (slot.busy?.call.signal?.aborted) this.arm(slot, slot.busy, this.graceMs, 'cancelled');
        else if (slot.busy) this.armTimeout(slot, slot.busy);
        return;
      case 'done':
        if (slot.busy?.id !== message.id) return;
        if (message.heapBytes > this.recycleHeapBytes) {
          // The caller hears back once the worker is gone, so its memory is back when it does.
          this.recycled += 1;
          this.remove(slot);
          this.finish(slot, message.outcome, slot.worker.terminate());
          this.drain();
          return;
        }
        this.finish(slot, message.outcome);
        this.drain();
        if (!slot.busy) this.scheduleIdle(slot);
        return;
      case 'token-request':
        void this.answerToken(slot, message.requestId);
        return;
    }
  }

  private async answerToken(slot: Slot, requestId: number): Promise<void> {
    const provider = this.options.googleAccessToken;
    if (!provider) {
      const { code, message } = googleNotConfigured();
      this.post(slot, { type: 'token', requestId, error: { code, message } });
      return;
    }
    try {
      const token = await provider(AbortSignal.timeout(30_000));
      this.post(slot, { type: 'token', requestId, token });
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'google_auth_failed';
      this.post(slot, { type: 'token', requestId, error: { code, message: error instanceof Error ? error.message : String(error) } });
    }
  }

  /** The worker died under a call (a crash, or out of its V8 heap): the call fails, a new worker takes over. */
  private lost(slot: Slot, error?: Error): void {
    if (!this.slots.includes(slot)) return;
    this.remove(slot);
    if (slot.busy) {
      this.restarts += 1;
      const durationMs = Date.now() - slot.busy.started;
      const outOfMemory = (error as { code?: unknown } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.finish(
        slot,
        outOfMemory
          ? failed('sandbox_limit', `The JavaScript sandbox worker ran out of its ${this.options.workerHeapMb ?? 128} MB heap and was stopped.`, durationMs, 'memory')
          : failed('internal_error', 'The JavaScript sandbox worker stopped unexpectedly.', durationMs),
      );
    }
    if (!this.closed) this.drain();
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
  }

  private post(slot: Slot, message: ToWorker): void {
    try {
      slot.worker.postMessage(message);
    } catch {
      this.lost(slot);
    }
  }
}

function failed(errorType: Exclude<JsCallErrorType, 'execution_error'>, message: string, durationMs = 0, limit?: SandboxLimitKind): JsCallOutcome {
  return { status: 'error', errorType, message, ...(limit ? { limit } : {}), logs: [], durationMs };
}

/**
 * The worker's code. Built output runs dist/sandbox/sandbox-worker.js; under Jest (TypeScript
 * sources) the worker compiles src/ with the same @swc/core that Jest uses, so tests never run a
 * stale dist/.
 */
function workerEntry(): { code: string } {
  const extension = path.extname(__filename);
  const file = path.join(__dirname, `sandbox-worker${extension}`);
  if (extension === '.ts') {
    const register = path.resolve(__dirname, '../../../../scripts/register-typescript.js');
    return { code: `require(${JSON.stringify(register)}); require(${JSON.stringify(file)});` };
  }
  return { code: `require(${JSON.stringify(file)});` };
}

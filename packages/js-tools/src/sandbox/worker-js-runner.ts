import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BridgeHostConfig } from '../bridges/create-bridge-host';
import { googleNotConfigured } from './bridge-host';
import type { JsCall, JsCallOutcome, JsRunner } from './js-call';
import type { FromWorker, ToWorker, WorkerCall } from './worker-protocol';

export interface WorkerJsRunnerOptions {
  /** Serializable bridge settings; each worker builds its own bridge host from them. */
  readonly bridge: BridgeHostConfig;
  /** Shared by all workers (one token cache, one refresh at a time). */
  readonly googleAccessToken?: (signal: AbortSignal) => Promise<string>;
  /** Calls that run at once, one per worker thread (default 4). */
  readonly maxWorkers?: number;
  /** Calls that may wait for a worker before new ones are refused (default 1000). */
  readonly maxQueue?: number;
  /** How long past its timeout (or its cancel) a call may take to stop before its worker is killed (default 1000 ms). */
  readonly graceMs?: number;
  /** An idle worker above the first is stopped after this long (default 30 s). */
  readonly idleMs?: number;
  /** Native stack of each worker thread; QuickJS's own stack limit must stay well below it (default 8 MB). */
  readonly workerStackMb?: number;
}

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
  readonly started: number;
  readonly resolve: (outcome: JsCallOutcome) => void;
  watchdog: NodeJS.Timeout | undefined;
  readonly onAbort: () => void;
}

interface Queued {
  readonly call: JsCall;
  readonly resolve: (outcome: JsCallOutcome) => void;
}

/**
 * Runs each call in a pool of worker threads, one call per worker at a time. The interrupt
 * handler stops guest code that runs too long, but not a guest stuck in one long native
 * operation (`new Array(1e9) + ''`, a string built near the memory limit: quickjs-emscripten#219);
 * the watchdog here is the last resort: when a call outlives its timeout by `graceMs`, its worker
 * is terminated, the call ends as `timeout`, and a new worker takes the next call. Other calls run
 * in other workers and are not affected (SBX-03).
 */
export class WorkerJsRunner implements JsRunner {
  private readonly slots: Slot[] = [];
  private readonly queue: Queued[] = [];
  private readonly maxWorkers: number;
  private readonly maxQueue: number;
  private readonly graceMs: number;
  private readonly idleMs: number;
  private nextId = 1;
  private closed = false;
  /** Workers killed by the watchdog or lost to a crash, for tests and metrics. */
  restarts = 0;

  constructor(private readonly options: WorkerJsRunnerOptions) {
    this.maxWorkers = Math.max(1, options.maxWorkers ?? 4);
    this.maxQueue = options.maxQueue ?? 1000;
    this.graceMs = options.graceMs ?? 1000;
    this.idleMs = options.idleMs ?? 30_000;
  }

  get workerCount(): number {
    return this.slots.length;
  }

  run(call: JsCall): Promise<JsCallOutcome> {
    if (this.closed) return Promise.resolve(failed('cancelled', 'The JavaScript sandbox is shut down.'));
    if (call.signal?.aborted) return Promise.resolve(failed('cancelled', 'The call was cancelled before it started.'));
    return new Promise((resolve) => {
      const slot = this.freeSlot();
      if (slot) this.start(slot, call, resolve);
      else if (this.queue.length >= this.maxQueue) resolve(failed('execution_error', `The JavaScript sandbox is busy (${this.queue.length} calls waiting). Try again shortly.`));
      else this.queue.push({ call, resolve });
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
    for (const queued of this.queue.splice(0)) queued.resolve(failed('cancelled', 'The JavaScript sandbox is shutting down.'));
    await Promise.all(
      [...this.slots].map(async (slot) => {
        if (slot.busy) this.finish(slot, failed('cancelled', 'The JavaScript sandbox is shutting down.'));
        this.remove(slot);
        await slot.worker.terminate();
      }),
    );
  }

  // ---- scheduling ----------------------------------------------------------------------------

  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((s) => !s.busy);
    if (idle) return idle;
    if (this.slots.length < this.maxWorkers) return this.spawn();
    return undefined;
  }

  private start(slot: Slot, call: JsCall, resolve: (outcome: JsCallOutcome) => void): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    const id = this.nextId++;
    const running: Running = {
      id,
      call,
      started: Date.now(),
      resolve,
      watchdog: undefined,
      onAbort: () => {
        Atomics.store(slot.cancelFlag, 0, id);
        this.post(slot, { type: 'cancel', id });
        this.arm(slot, running, this.graceMs, 'cancelled');
      },
    };
    slot.busy = running;
    this.arm(slot, running, call.timeoutMs + this.graceMs, 'timeout');
    call.signal?.addEventListener('abort', running.onAbort, { once: true });
    const workerCall: WorkerCall = {
      fileName: call.script.fileName,
      code: call.script.sliceFor(call.functionName),
      functionName: call.functionName,
      params: call.params,
      env: call.env,
      timeoutMs: call.timeoutMs,
      ...(call.limits ? { limits: call.limits } : {}),
    };
    this.post(slot, { type: 'run', id, call: workerCall });
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

  private finish(slot: Slot, outcome: JsCallOutcome): void {
    const running = slot.busy;
    if (!running) return;
    slot.busy = undefined;
    if (running.watchdog) clearTimeout(running.watchdog);
    running.call.signal?.removeEventListener('abort', running.onAbort);
    running.resolve(outcome);
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const slot = this.freeSlot();
      if (!slot) return;
      const next = this.queue.shift() as Queued;
      if (next.call.signal?.aborted) {
        next.resolve(failed('cancelled', 'The call was cancelled before it started.'));
        continue;
      }
      this.start(slot, next.call, next.resolve);
    }
    for (const slot of this.slots) if (!slot.busy) this.scheduleIdle(slot);
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
      workerData: { bridge: this.options.bridge, cancelFlag },
      resourceLimits: { stackSizeMb: this.options.workerStackMb ?? 8 },
      stdout: true,
      stderr: true,
    });
    // Guest console output is captured per call; anything else a worker prints is dropped, so
    // nothing reaches the server's stdout unredacted.
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker, cancelFlag, ready: false, busy: undefined, idleTimer: undefined };
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    worker.on('error', () => this.lost(slot));
    worker.on('exit', () => this.lost(slot));
    this.slots.push(slot);
    return slot;
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    switch (message.type) {
      case 'ready':
        slot.ready = true;
        return;
      case 'done':
        if (slot.busy?.id === message.id) {
          this.finish(slot, message.outcome);
          this.drain();
          if (!slot.busy) this.scheduleIdle(slot);
        }
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

  /** The worker died under a call (a crash, or out of memory in Node): the call fails, a new worker takes over. */
  private lost(slot: Slot): void {
    if (!this.slots.includes(slot)) return;
    this.remove(slot);
    if (slot.busy) {
      this.restarts += 1;
      this.finish(slot, failed('internal_error', 'The JavaScript sandbox worker stopped unexpectedly.', Date.now() - slot.busy.started));
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

function failed(errorType: 'timeout' | 'cancelled' | 'execution_error' | 'internal_error', message: string, durationMs = 0): JsCallOutcome {
  return { status: 'error', errorType, message, logs: [], durationMs };
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

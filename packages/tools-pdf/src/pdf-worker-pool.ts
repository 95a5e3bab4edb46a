import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { OneClawError } from '@oneclaw/core';
import type { FromPdfWorker, PdfJob, PdfResults, ToPdfWorker } from './pdf-worker-protocol';

export interface PdfWorkerPoolOptions {
  /** Jobs that run at once, one per worker thread (default 2: the server's other work needs the cores too). */
  readonly maxWorkers?: number;
  /** An idle worker is stopped after this long, giving back pdfjs's memory (default 60 s). */
  readonly idleMs?: number;
  /** Heap of each worker; a PDF that needs more ends its job instead of the server (default 512 MB). */
  readonly maxHeapMb?: number;
}

interface Slot {
  readonly worker: Worker;
  busy: Running | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

interface Running {
  readonly id: number;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: OneClawError) => void;
  readonly detach: () => void;
}

interface Queued {
  readonly job: PdfJob;
  readonly signal: AbortSignal;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: OneClawError) => void;
  /** Removes the listener that drops the job while it waits. */
  leaveQueue?: () => void;
}

/**
 * Runs PDF jobs in worker threads, so parsing an untrusted PDF never blocks the server's event
 * loop. pdfjs cannot be interrupted mid-parse, so when a job's signal aborts (the tool timed out,
 * or the turn was cancelled) its worker is terminated at once and a fresh one takes the next job.
 */
export class PdfWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Queued[] = [];
  private readonly maxWorkers: number;
  private readonly idleMs: number;
  private nextId = 1;
  private closed = false;
  /** Workers terminated under a job (aborted, or crashed); for tests and metrics. */
  restarts = 0;

  constructor(private readonly options: PdfWorkerPoolOptions = {}) {
    this.maxWorkers = Math.max(1, options.maxWorkers ?? 2);
    this.idleMs = options.idleMs ?? 60_000;
  }

  get workerCount(): number {
    return this.slots.length;
  }

  run<J extends PdfJob>(job: J, signal: AbortSignal): Promise<PdfResults[J['op']]> {
    return new Promise<PdfResults[J['op']]>((resolve, reject) => {
      if (this.closed) return reject(new OneClawError('cancelled', 'The PDF tools are shutting down.'));
      if (signal.aborted) return reject(stopped(signal));
      const queued: Queued = { job, signal, resolve: resolve as (result: unknown) => void, reject };
      const slot = this.freeSlot();
      if (slot) return this.start(slot, queued);
      const onAbort = () => {
        const index = this.queue.indexOf(queued);
        if (index < 0) return;
        this.queue.splice(index, 1);
        reject(stopped(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      queued.leaveQueue = () => signal.removeEventListener('abort', onAbort);
      this.queue.push(queued);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.queue.splice(0)) queued.reject(new OneClawError('cancelled', 'The PDF tools are shutting down.'));
    await Promise.all(
      [...this.slots].map(async (slot) => {
        this.finish(slot)?.reject(new OneClawError('cancelled', 'The PDF tools are shutting down.'));
        this.remove(slot);
        await slot.worker.terminate();
      }),
    );
  }

  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((s) => !s.busy);
    if (idle) return idle;
    return this.slots.length < this.maxWorkers ? this.spawn() : undefined;
  }

  private start(slot: Slot, { job, signal, resolve, reject, leaveQueue }: Queued): void {
    leaveQueue?.();
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    const id = this.nextId++;
    const onAbort = () => {
      if (slot.busy?.id !== id) return;
      this.finish(slot);
      this.restarts += 1;
      this.remove(slot);
      void slot.worker.terminate();
      reject(stopped(signal));
      this.drain();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    slot.busy = { id, resolve, reject, detach: () => signal.removeEventListener('abort', onAbort) };
    slot.worker.ref();
    // Transferring detaches the whole buffer: a view into a shared one (Node's Buffer pool) is copied first.
    const { bytes } = job;
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    const message: ToPdfWorker = { id, job: { ...job, bytes: own } };
    try {
      slot.worker.postMessage(message, [own.buffer as ArrayBuffer]);
    } catch {
      this.lost(slot);
    }
  }

  /** Clears the slot's job and returns it, so the caller settles it. */
  private finish(slot: Slot): Running | undefined {
    const running = slot.busy;
    slot.busy = undefined;
    running?.detach();
    // An idle worker must not keep the process alive; a busy one is what its caller waits for.
    slot.worker.unref();
    return running;
  }

  private onMessage(slot: Slot, message: FromPdfWorker): void {
    if (slot.busy?.id !== message.id) return;
    const running = this.finish(slot) as Running;
    if (message.ok) running.resolve(message.result);
    else running.reject(new OneClawError(message.code, message.message));
    this.drain();
    if (!slot.busy) this.scheduleIdle(slot);
  }

  private drain(): void {
    while (this.queue.length > 0 && !this.closed) {
      const slot = this.freeSlot();
      if (!slot) return;
      this.start(slot, this.queue.shift() as Queued);
    }
  }

  private scheduleIdle(slot: Slot): void {
    if (slot.idleTimer || this.closed) return;
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = undefined;
      if (slot.busy) return;
      this.remove(slot);
      void slot.worker.terminate();
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  private spawn(): Slot {
    const worker = new Worker(workerEntry(), {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 512 },
      stdout: true,
      stderr: true,
    });
    // pdfjs prints warnings about malformed files; they are not the server's log.
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker, busy: undefined, idleTimer: undefined };
    worker.on('message', (message: FromPdfWorker) => this.onMessage(slot, message));
    worker.on('error', () => this.lost(slot));
    worker.on('exit', () => this.lost(slot));
    this.slots.push(slot);
    return slot;
  }

  /** The worker died (out of memory, a native crash): its job fails, a new worker takes the next. */
  private lost(slot: Slot): void {
    if (!this.slots.includes(slot)) return;
    this.remove(slot);
    const running = this.finish(slot);
    if (running) {
      this.restarts += 1;
      running.reject(
        new OneClawError('pdf_engine_failed', 'The PDF engine stopped while reading this file (it may need too much memory, or be damaged). Try another page or a smaller file.'),
      );
    }
    this.drain();
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
  }
}

/** A job ended from outside: the engine's timeout aborts with a TimeoutError, a stopped turn with anything else. */
function stopped(signal: AbortSignal): OneClawError {
  // Duck-typed: the engine's DOMException need not come from this realm's Error.
  const reason: unknown = signal.reason;
  if (typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError') {
    return new OneClawError('timeout', 'Reading the PDF took too long and was stopped. Try fewer pages, a lower dpi, or a smaller file.');
  }
  return new OneClawError('cancelled', 'Reading the PDF was cancelled.');
}

/**
 * The worker's code. Built output runs dist/.../pdf-worker.js; under Jest (TypeScript sources)
 * the worker compiles src/ with the same @swc/core that Jest uses, so tests never run a stale dist/.
 */
function workerEntry(): string {
  const extension = path.extname(__filename);
  const file = path.join(__dirname, `pdf-worker${extension}`);
  if (extension === '.ts') {
    const register = path.resolve(__dirname, '../../../scripts/register-typescript.js');
    return `require(${JSON.stringify(register)}); require(${JSON.stringify(file)});`;
  }
  return `require(${JSON.stringify(file)});`;
}

import { performance } from 'node:perf_hooks';
import { Scope, type QuickJSContext, type QuickJSDeferredPromise, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten-core';
import { FETCH_METHODS, FS_OPS, type BridgeHost, type FsOp, type GuestFetchRequest } from './bridge-host';
import type { CappedWasmMemory } from './capped-wasm-memory';
import { BRIDGE_NAMES, BRIDGE_SOURCES, GUEST_HELPERS, HOST_FUNCTIONS, type BridgeName, type HostFunctionName } from './guest-prelude';
import type { JsCall, JsCallErrorType, JsCallOutcome, JsLogLine, SandboxLimitKind } from './js-call';
import type { SandboxModule } from './quickjs-module';
import { secretRedactor, type SecretRedactor } from './secret-redactor';
import { resolveLimits, type SandboxLimits } from './sandbox-limits';

type Interruption = 'cpu' | 'wall' | 'cancel';

class CallFailure extends Error {
  constructor(
    readonly errorType: JsCallErrorType,
    message: string,
    readonly limit?: SandboxLimitKind,
  ) {
    super(message);
  }
}

/**
 * Runs one call in a fresh QuickJS runtime and context (no state survives between calls or
 * tools: SBX-14), with the memory, stack and CPU limits set on that runtime, and disposes every
 * handle before it returns. Never throws: every failure is an outcome.
 *
 * Async work is host promises (`ctx.newPromise()`), never asyncify (SBX-18). The driver runs the
 * guest's pending jobs itself and then waits for the next host operation, the deadline or a
 * cancel, so a guest promise that can never settle ends the call instead of hanging it.
 */
export interface RunOptions {
  /**
   * Polled by the interrupt handler. A guest busy in a loop blocks its thread's event loop, so an
   * AbortSignal from that thread cannot fire until the loop yields; a worker's parent sets a
   * shared-memory flag instead, which this reads (see WorkerJsRunner).
   */
  readonly isCancelled?: () => boolean;
  /**
   * A runtime and context made ahead of the call by `prepareRuntime` on the same module, which
   * this call takes over and disposes (F3). Unset: the call makes its own.
   */
  readonly prepared?: PreparedRuntime;
}

/**
 * A fresh QuickJS runtime and context, with the bridge getters installed, made before the call
 * that will use it is known, so a worker can pay for it between calls instead of during one
 * (issue 17, F3). No guest code has run in it. It serves exactly one call, which disposes it:
 * it is never reused, so isolation between calls (SBX-14) is exactly as with a runtime made by
 * the call itself. Its limits and interrupt handler are set when the call takes it over.
 */
export class PreparedRuntime {
  /** The call that took this runtime over; the bridge getters install into that call. */
  owner: { installBridge(name: BridgeName): QuickJSHandle } | undefined;
  private taken = false;

  constructor(
    readonly module: SandboxModule,
    readonly rt: QuickJSRuntime,
    readonly ctx: QuickJSContext,
  ) {}

  /** Hands the runtime to one call; undefined if another call already took it. */
  take(owner: { installBridge(name: BridgeName): QuickJSHandle }): this | undefined {
    if (this.taken) return undefined;
    this.taken = true;
    this.owner = owner;
    return this;
  }

  /** Releases a runtime no call took (a worker shutting down). */
  dispose(): void {
    if (this.taken) return;
    this.taken = true;
    this.ctx.dispose();
    this.rt.dispose();
  }
}

export function prepareRuntime(module: SandboxModule): PreparedRuntime {
  const rt = module.quickjs.newRuntime();
  try {
    const prepared = new PreparedRuntime(module, rt, rt.newContext());
    installBridgeGetters(prepared.ctx, (name) => prepared.owner?.installBridge(name) ?? prepared.ctx.undefined);
    return prepared;
  } catch (error) {
    if (rt.alive) rt.dispose();
    throw error;
  }
}

/** What a call produced, and the release of its runtime, which the caller may do after answering. */
export interface ExecutedJsCall {
  readonly outcome: JsCallOutcome;
  /**
   * Disposes the call's runtime and every handle, and gives its memory grant back. Returns (never
   * throws) what went wrong, which means the module may be broken.
   */
  release(): unknown;
}

export async function runJsCall(module: SandboxModule, call: JsCall, host: BridgeHost, options: RunOptions = {}): Promise<JsCallOutcome> {
  const { outcome, release } = await executeJsCall(module, call, host, options);
  const disposeError = release();
  if (!disposeError || outcome.status === 'error') return outcome;
  return {
    status: 'error',
    errorType: 'internal_error',
    message: `The JavaScript sandbox failed to release the call: ${describe(disposeError)}`,
    logs: outcome.logs,
    durationMs: outcome.durationMs,
  };
}

/**
 * Runs a call and answers before its runtime is released: a worker sends the outcome first and
 * disposes afterwards, so the caller does not wait for the teardown (F3). The caller must call
 * `release()` before the module runs anything else.
 */
export async function executeJsCall(module: SandboxModule, call: JsCall, host: BridgeHost, options: RunOptions = {}): Promise<ExecutedJsCall> {
  const started = performance.now();
  const limits = resolveLimits(call.limits);
  const redact = secretRedactor(Object.values(call.env));
  const logs: JsLogLine[] = [];
  const run = new CallRun(module, call, host, limits, redact, logs, options);
  let failure: CallFailure | undefined;
  let result = '';
  try {
    result = redact(await run.execute());
  } catch (error) {
    failure = error instanceof CallFailure ? error : new CallFailure('internal_error', `The JavaScript sandbox failed: ${describe(error)}`);
  }
  // Nothing of the guest runs after this: bridges still in flight find the call finished (SBX-13).
  run.finish();
  const durationMs = performance.now() - started;
  const release = () => run.dispose();
  if (!failure) return { outcome: { status: 'success', result, logs, durationMs }, release };
  return {
    outcome: {
      status: 'error',
      errorType: failure.errorType,
      message: redact(failure.message),
      ...(failure.limit ? { limit: failure.limit } : {}),
      logs,
      durationMs,
    },
    release,
  };
}

class CallRun {
  private readonly scope = new Scope();
  /**
   * Aborts the bridges in flight when the call ends. Made on the first async bridge: aborting
   * builds a DOMException, which a call that used no bridge should not pay for (F3).
   */
  private controller: AbortController | undefined;
  private readonly pending = new Set<QuickJSDeferredPromise>();
  /** Fetched response bodies by id, in arrival order (the oldest read ones are released first). */
  private readonly bodies = new Map<number, { readonly bytes: Uint8Array; read: boolean }>();
  private heldBodyBytes = 0;
  private nextBodyId = 1;
  private readonly heap: CappedWasmMemory;
  private releaseHeap: () => void = () => {};
  /** Set when the call starts running, not when it was created: waiting must not eat its time. */
  private wallDeadline = Number.POSITIVE_INFINITY;
  private readonly cpuBudget: number;
  private cpuUsed = 0;
  private segmentStart = 0;
  private inGuest = false;
  /**
   * The capped heap refused to grow during a guest segment of this call and did not grow after:
   * a value-less exception is then QuickJS failing to allocate, not the tool's throw. Kept for the
   * rest of the call: a promise rejected that way in one segment may be read after later ones
   * (an allocation that failed in a promise job, awaited after a bridge call).
   */
  private heapRefused = false;
  private interruption: Interruption | undefined;
  private finished = false;
  private released = false;
  private wake: (() => void) | undefined;
  private readonly onAbort = () => {
    this.interruption ??= 'cancel';
    this.notify();
  };
  private ctx!: QuickJSContext;

  constructor(
    private readonly module: SandboxModule,
    private readonly call: JsCall,
    private readonly host: BridgeHost,
    private readonly limits: SandboxLimits,
    private readonly redact: SecretRedactor,
    private readonly logs: JsLogLine[],
    private readonly options: RunOptions,
  ) {
    this.heap = module.heap;
    this.cpuBudget = limits.cpuMs ?? call.timeoutMs;
  }

  async execute(): Promise<string> {
    if (this.call.signal?.aborted) throw new CallFailure('cancelled', 'The call was cancelled before it started.');
    this.wallDeadline = Date.now() + this.call.timeoutMs;
    this.call.signal?.addEventListener('abort', this.onAbort, { once: true });

    // Checked before anything is copied into the sandbox.
    const paramsJson = JSON.stringify({ ...this.call.params, _env: { ...this.call.env } });
    if (paramsJson.length > this.limits.inputChars) {
      throw new CallFailure('sandbox_limit', `The tool's arguments are ${paramsJson.length} characters as JSON; the limit is ${this.limits.inputChars}.`, 'input');
    }

    this.releaseHeap = this.heap.grant(this.limits.memoryBytes);
    const prepared = this.options.prepared?.module === this.module ? this.options.prepared.take(this) : undefined;
    const rt = this.scope.manage(prepared?.rt ?? this.module.quickjs.newRuntime());
    // Still useful: it refuses any single allocation above the limit before the heap is touched.
    rt.setMemoryLimit(this.limits.memoryBytes);
    rt.setMaxStackSize(this.limits.stackBytes);
    rt.setInterruptHandler(() => this.shouldInterrupt());
    const ctx = (this.ctx = this.scope.manage(prepared?.ctx ?? rt.newContext()));

    if (!prepared) installBridgeGetters(ctx, (name) => this.installBridge(name));

    const { script, functionName } = this.call;
    // Asked before the script runs, while the global object holds only what the sandbox put there.
    const builtIn = script.functionNames?.has(functionName) !== true && this.isGlobalName(functionName);
    const code = script.sliceFor(functionName);
    this.manage(this.guest(() => this.heap.withHeadroom(copyInBytes(code), () => ctx.evalCode(code, script.fileName))));
    const fn = builtIn ? ctx.undefined : this.manage(this.lookupFunction(functionName));
    if (ctx.typeof(fn) !== 'function') {
      throw new CallFailure('execution_error', `Function '${functionName}' is not defined`);
    }

    const json = this.manage(ctx.getProp(ctx.global, 'JSON'));
    const parse = this.manage(ctx.getProp(json, 'parse'));
    const paramsText = this.manage(this.hostString(paramsJson));
    const params = this.manage(this.guest(() => ctx.callFunction(parse, json, paramsText)));

    const returned = this.manage(this.guest(() => ctx.callFunction(fn, ctx.undefined, params)));
    const settled = await this.settle(returned);
    return this.resultText(settled, json);
  }

  /**
   * Whether the fresh global object (its prototype chain included) already has this name: a
   * built-in (`eval`, `parseInt`, `toString`) or a bridge. A tool function the script does not
   * declare may still be made at run time (`var f = make()`), but not under such a name: the tool
   * would run the built-in (`eval` echoing its params) instead of failing as not defined (J5).
   * `in` does not run the bridges' lazy getters.
   */
  private isGlobalName(name: string): boolean {
    const ctx = this.ctx;
    const result = ctx.evalCode(`${JSON.stringify(name)} in globalThis`, 'oneclaw:lookup');
    if (result.error) {
      result.error.dispose();
      return false;
    }
    try {
      return ctx.dump(result.value) === true;
    } finally {
      result.value.dispose();
    }
  }

  /**
   * `function f` and `var f` are properties of the global object; `const f = ...` and `let f`
   * live in the global lexical scope, which only code can see, so those are looked up by name.
   */
  private lookupFunction(name: string): QuickJSHandle {
    const ctx = this.ctx;
    const property = ctx.getProp(ctx.global, name);
    if (ctx.typeof(property) === 'function' || !/^[A-Za-z_$][\w$]*$/.test(name)) return property;
    property.dispose();
    const lexical = ctx.evalCode(`typeof ${name} === 'function' ? ${name} : undefined`, 'oneclaw:lookup');
    if (lexical.error) {
      lexical.error.dispose();
      return ctx.undefined;
    }
    return lexical.value;
  }

  /** Ends the call for the host: bridges in flight are aborted and their answers dropped. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.call.signal?.removeEventListener('abort', this.onAbort);
    this.controller?.abort();
    this.bodies.clear();
  }

  /** Returns (never throws) what went wrong while releasing, which means the module may be broken. */
  dispose(): unknown {
    if (this.released) return undefined;
    this.released = true;
    this.finish();
    for (const deferred of this.pending) if (deferred.alive) deferred.dispose();
    this.pending.clear();
    try {
      this.scope.dispose();
      return undefined;
    } catch (error) {
      return error;
    } finally {
      this.releaseHeap();
    }
  }

  // ---- limits -----------------------------------------------------------------------------

  private shouldInterrupt(): boolean {
    if (this.interruption) return true;
    if (this.options.isCancelled?.()) {
      this.interruption = 'cancel';
      return true;
    }
    const now = Date.now();
    if (now > this.wallDeadline) this.interruption = 'wall';
    else if (this.inGuest && this.cpuUsed + (now - this.segmentStart) > this.cpuBudget) this.interruption = 'cpu';
    return this.interruption !== undefined;
  }

  /** Runs guest code, counting its CPU time, and turns a guest exception into a CallFailure. */
  private guest(enter: () => { error?: QuickJSHandle; value?: QuickJSHandle } | ReturnType<QuickJSContext['evalCode']>): QuickJSHandle {
    const result = this.timed(enter);
    if ('error' in result && result.error) throw this.failureFrom(result.error);
    return (result as { value: QuickJSHandle }).value;
  }

  /** Counts the time spent in guest code against the CPU budget the interrupt handler enforces. */
  private timed<T>(enter: () => T): T {
    this.segmentStart = Date.now();
    this.inGuest = true;
    // Counted per segment, not per call: other calls run on the same module between our segments.
    const refusals = this.heap.refusals;
    try {
      return enter();
    } finally {
      this.inGuest = false;
      this.cpuUsed += Date.now() - this.segmentStart;
      this.heapRefused ||= this.heap.refusals > refusals && this.heap.outOfRoom;
    }
  }

  private failureFrom(errorHandle: QuickJSHandle): CallFailure {
    let dumped: unknown;
    let unreadable = false;
    try {
      // After an interruption the reason is ours, not what was thrown (see classify).
      dumped = this.interruption ? undefined : this.thrownValue(errorHandle);
    } catch {
      unreadable = true;
    } finally {
      errorHandle.dispose();
    }
    return this.classify(dumped, unreadable);
  }

  /**
   * What the guest threw, as `dump` gives it, but copied out with the size check a result gets:
   * a string, an error's name and message, or the JSON of any other object, read through the
   * handle and cut inside the guest when longer than outputChars (redacted before the cut, as a
   * console line). `dump` alone copied a thrown string of any size out whole, and an error whose
   * message did not fit the module heap came out empty.
   */
  private thrownValue(handle: QuickJSHandle): unknown {
    const ctx = this.ctx;
    const type = ctx.typeof(handle);
    if (type === 'string') return this.boundedText(handle);
    if (type !== 'object' || ctx.sameValue(handle, ctx.null)) return ctx.dump(handle);
    const message = this.manage(ctx.getProp(handle, 'message'));
    if (ctx.typeof(message) === 'string') {
      const name = this.manage(ctx.getProp(handle, 'name'));
      return { name: ctx.typeof(name) === 'string' ? this.boundedText(name) : 'Error', message: this.boundedText(message) };
    }
    const json = this.manage(ctx.getProp(ctx.global, 'JSON'));
    const stringify = this.manage(ctx.getProp(json, 'stringify'));
    const text = ctx.callFunction(stringify, json, handle);
    if (text.error) {
      // Out of memory: the value's JSON does not fit the call's memory, which classify reports.
      // Anything else (a cycle) is dumped as before.
      const failure = errorParts(ctx.dump(text.error));
      text.error.dispose();
      return /out of memory/i.test(failure.message) ? failure : ctx.dump(handle);
    }
    const kept = this.manage(text.value);
    return ctx.typeof(kept) === 'string' ? this.boundedText(kept) : ctx.dump(handle);
  }

  /** A guest string copied out, cut inside the guest above outputChars like a console line. */
  private boundedText(handle: QuickJSHandle): string {
    const length = this.stringLength(handle) ?? 0;
    return length <= this.limits.outputChars ? this.readString(handle) : this.cutText(handle, length, this.limits.outputChars);
  }

  /**
   * The first `max` characters of a longer guest string, redacted, and how long it was. Redacted
   * before it is cut: a secret that spans the cut would otherwise keep its start. So the guest's
   * slice reaches past the cut by the longest secret.
   */
  private cutText(handle: QuickJSHandle, length: number, max: number): string {
    const start = this.readString(this.sliced(handle, max + this.redact.reach));
    return `${this.redact.cut(start, max)}… (${length} characters, cut at ${max})`;
  }

  private classify(dumped: unknown, unreadable = false): CallFailure {
    switch (this.interruption) {
      case 'cancel':
        return new CallFailure('cancelled', 'The call was cancelled.');
      case 'wall':
        return new CallFailure('timeout', `The JavaScript tool did not finish within ${this.call.timeoutMs} ms.`);
      case 'cpu':
        return new CallFailure('sandbox_limit', `The JavaScript tool used more than its ${this.cpuBudget} ms of CPU time.`, 'cpu');
      default:
        break;
    }
    const { name, message } = errorParts(dumped);
    // QuickJS reports an allocation failure as an exception that dumps to null when it cannot
    // even allocate the error (RELIABILITY B2). A tool may throw null or undefined itself, so a
    // value-less exception means memory only when the heap really refused to grow.
    const valueless = unreadable || dumped === null || dumped === undefined;
    if ((valueless && this.heapRefused) || /out of memory/i.test(message)) {
      return new CallFailure('sandbox_limit', `The JavaScript tool ran out of memory (limit ${mib(this.limits.memoryBytes)}).`, 'memory');
    }
    if (unreadable) return new CallFailure('execution_error', 'The tool threw a value that could not be read.');
    if (dumped === null || dumped === undefined) return new CallFailure('execution_error', `The tool threw ${String(dumped)}.`);
    if ((name === 'RangeError' || name === 'InternalError' || name === 'SyntaxError') && /stack overflow|call stack size/i.test(message)) {
      return new CallFailure('sandbox_limit', `The JavaScript tool overflowed its stack (limit ${mib(this.limits.stackBytes)}).`, 'stack');
    }
    const text = name && name !== 'Error' && !message.startsWith(name) ? `${name}: ${message}` : message;
    return new CallFailure('execution_error', text);
  }

  // ---- async driver ------------------------------------------------------------------------

  private async settle(value: QuickJSHandle): Promise<QuickJSHandle> {
    const ctx = this.ctx;
    for (;;) {
      this.runJobs();
      const state = ctx.getPromiseState(value);
      if (state.type === 'fulfilled') {
        if (state.notAPromise) return value;
        return this.manage(state.value);
      }
      if (state.type === 'rejected') throw this.failureFrom(state.error);
      if (this.interruption) throw this.classify(undefined);
      if (this.pending.size === 0 && !ctx.runtime.hasPendingJob()) {
        throw new CallFailure('execution_error', 'The tool returned a promise that can never settle (it waits on nothing).');
      }
      await this.nextEvent();
    }
  }

  private runJobs(): void {
    const ctx = this.ctx;
    while (ctx.runtime.hasPendingJob()) {
      const result = this.timed(() => ctx.runtime.executePendingJobs());
      if (result.error) throw this.failureFrom(result.error);
      if (this.interruption) throw this.classify(undefined);
    }
  }

  private nextEvent(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(
        () => {
          this.interruption ??= 'wall';
          done();
        },
        Math.max(0, this.wallDeadline - Date.now()) + 1,
      );
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
    });
  }

  private notify(): void {
    this.wake?.();
  }

  // ---- bridges -----------------------------------------------------------------------------

  private hostObject: QuickJSHandle | undefined;
  private readonly hostFunctions = new Set<HostFunctionName>();
  private helpers: QuickJSHandle | undefined;

  /** Called by a bridge global's getter on its first read (see installBridgeGetters). */
  installBridge(name: BridgeName): QuickJSHandle {
    const ctx = this.ctx;
    const host = (this.hostObject ??= this.manage(ctx.newObject()));
    // Only the host functions this bridge calls: each costs a host callback in the fresh context,
    // and defining all seven for `_time` alone was 70 µs of the 623 µs a get_current_time call
    // cost its worker (docs/js-tools.md).
    for (const fn of HOST_FUNCTIONS[name]) this.defineHostFunction(host, fn);
    this.helpers ??= this.manage(this.callSnippet(GUEST_HELPERS, 'oneclaw:helpers', []));
    const value = this.manage(this.callSnippet(BRIDGE_SOURCES[name], `oneclaw:${name}`, [host, this.helpers]));
    ctx.defineProp(ctx.global, name, { configurable: true, enumerable: false, value });
    return value;
  }

  /** Evaluates `(function (...) {...})` and calls it; a failure here is the sandbox's, not the tool's. */
  private callSnippet(source: string, fileName: string, args: QuickJSHandle[]): QuickJSHandle {
    const ctx = this.ctx;
    const fn = ctx.unwrapResult(ctx.evalCode(source, fileName));
    try {
      return ctx.unwrapResult(ctx.callFunction(fn, ctx.undefined, ...args));
    } finally {
      fn.dispose();
    }
  }

  /** Puts one host function on the host object, once per call. */
  private defineHostFunction(host: QuickJSHandle, name: HostFunctionName): void {
    if (this.hostFunctions.has(name)) return;
    this.hostFunctions.add(name);
    const ctx = this.ctx;
    const handle = ctx.newFunction(name, this.hostFunction(name));
    ctx.setProp(host, name, handle);
    handle.dispose();
  }

  private hostFunction(name: HostFunctionName): (...args: QuickJSHandle[]) => QuickJSHandle | undefined {
    const ctx = this.ctx;
    switch (name) {
      case 'log':
        return (level, message) => {
          this.log(ctx.getString(level), message);
          return undefined;
        };
      case 'fs':
        return (op, args) => this.hostString(this.sync(() => this.fsCall(ctx.getString(op), ctx.getString(args))));
      case 'time':
        return (args) =>
          this.hostString(
            this.sync(() => {
              const [timezone, format] = parseArgs(ctx.getString(args));
              return this.host.formatTime(optionalString(timezone, 'timezone'), optionalString(format, 'format'));
            }),
          );
      case 'body':
        return (id, encoding) => this.hostString(this.sync(() => this.bodyText(ctx.getNumber(id), ctx.getString(encoding))));
      case 'lib':
        return (libName) => this.library(ctx.getString(libName));
      case 'fetch':
        return (request) => {
          const text = ctx.getString(request);
          return this.async(async (signal) => {
            const response = await this.host.fetch(parseFetchRequest(text), signal);
            const { body, ...rest } = response;
            return { ...rest, bodyId: this.holdBody(body) };
          });
        };
      case 'googleToken':
        return () => this.async((signal) => this.host.googleAccessToken(signal));
    }
  }

  private log(level: string, messageHandle: QuickJSHandle): void {
    const levels: readonly JsLogLine['level'][] = ['log', 'info', 'warn', 'error', 'debug'];
    if (this.logs.length >= this.limits.maxLogLines) return;
    const max = this.limits.maxLogLineChars;
    // The length is read through the handle, so a line of megabytes is never copied out to be cut.
    const length = this.stringLength(messageHandle);
    let message: string;
    if (length === undefined) message = '(a console line that is not a string was dropped)';
    else if (length <= max) message = this.redact(this.readString(messageHandle));
    else message = this.cutText(messageHandle, length, max);
    this.logs.push({ level: levels.includes(level as JsLogLine['level']) ? (level as JsLogLine['level']) : 'log', message });
    if (this.logs.length === this.limits.maxLogLines) this.logs.push({ level: 'warn', message: `(further console output dropped after ${this.limits.maxLogLines} lines)` });
  }

  private fsCall(op: string, argsJson: string): unknown {
    if (!(FS_OPS as readonly string[]).includes(op)) throw new BridgeFailure('invalid_request', `fs.${op} does not exist.`);
    return this.host.fs(op as FsOp, parseArgs(argsJson));
  }

  /**
   * Keeps a response body on the host until the guest reads it. What a call holds is capped:
   * bodies already read are released first (oldest first); a call that still holds too much
   * unread gets a `too_large` error instead of the new response.
   */
  private holdBody(bytes: Uint8Array): number {
    const cap = this.limits.heldBodyBytes;
    for (const [id, body] of this.bodies) {
      if (this.heldBodyBytes + bytes.byteLength <= cap) break;
      if (!body.read) continue;
      this.bodies.delete(id);
      this.heldBodyBytes -= body.bytes.byteLength;
    }
    if (this.heldBodyBytes + bytes.byteLength > cap) {
      throw new BridgeFailure(
        'too_large',
        `This call already holds ${this.heldBodyBytes} bytes of response bodies it has not read, and this response has ${bytes.byteLength}; the limit is ${cap}. Read each body when it arrives, or use saveTo for downloads.`,
      );
    }
    const id = this.nextBodyId++;
    this.bodies.set(id, { bytes, read: false });
    this.heldBodyBytes += bytes.byteLength;
    return id;
  }

  private bodyText(id: number, encoding: string): string {
    const body = this.bodies.get(id);
    if (!body) {
      const why = id < this.nextBodyId ? ' It was released to make room for later responses: read each body once, when it arrives.' : '';
      throw new BridgeFailure('invalid_request', `That response body is not available.${why}`);
    }
    body.read = true;
    // Refused before converting: base64 is a third longer than the bytes, UTF-8 text at most as long.
    const chars = encoding === 'base64' ? Math.ceil(body.bytes.byteLength / 3) * 4 : body.bytes.byteLength;
    if (chars > this.limits.bridgeChars) throw this.tooLarge(`The response body (${body.bytes.byteLength} bytes)`, chars);
    return encoding === 'base64' ? Buffer.from(body.bytes).toString('base64') : Buffer.from(body.bytes).toString('utf8');
  }

  /** Evaluates a CommonJS library into a factory function, or returns an error string. */
  private library(name: string): QuickJSHandle {
    const ctx = this.ctx;
    let source: { fileName: string; source: string };
    try {
      source = this.host.librarySource(name);
    } catch (error) {
      return ctx.newString(JSON.stringify({ error: this.guestError(error) }));
    }
    if (source.source.length > this.limits.bridgeChars) {
      return ctx.newString(JSON.stringify({ error: this.guestError(this.tooLarge(`Library '${name}'`, source.source.length)) }));
    }
    const wrapped = `(function (module, exports, lib) {\n${source.source}\n})`;
    // Compiling takes a few times the source; libraries are deployment files, not guest data.
    const result = this.heap.withHeadroom(copyInBytes(wrapped) + 4 * wrapped.length, () => ctx.evalCode(wrapped, source.fileName));
    if (result.error) {
      const { name: errorName, message } = errorParts(ctx.dump(result.error));
      result.error.dispose();
      return ctx.newString(JSON.stringify({ error: { name: 'Error', code: 'lib_error', message: this.redact(`Library '${name}' failed to load: ${errorName}: ${message}`) } }));
    }
    return result.value;
  }

  /** A synchronous bridge: `{"value"}` or `{"error"}` as JSON, never a host exception. */
  private sync(work: () => unknown): string {
    try {
      return this.bridgeValue(work());
    } catch (error) {
      return JSON.stringify({ error: this.guestError(error) });
    }
  }

  /** A bridge's answer as the JSON the guest unwraps, refused when it is larger than one bridge value may be. */
  private bridgeValue(value: unknown): string {
    const payload = this.redact(JSON.stringify({ value: value ?? null }));
    if (payload.length > this.limits.bridgeChars) throw this.tooLarge('The answer', payload.length);
    return payload;
  }

  private tooLarge(what: string, chars: number): BridgeFailure {
    return new BridgeFailure(
      'too_large',
      `${what} would be ${chars} characters in the sandbox; one bridge value may be at most ${this.limits.bridgeChars}. Read less at a time (a smaller file, a narrower request), or save downloads with saveTo.`,
    );
  }

  /** An async bridge: a guest promise that always resolves, with `{"value"}` or `{"error"}`. */
  private async(work: (signal: AbortSignal) => Promise<unknown>): QuickJSHandle {
    const ctx = this.ctx;
    const deferred = ctx.newPromise();
    this.pending.add(deferred);
    this.controller ??= new AbortController();
    if (this.finished) this.controller.abort();
    work(this.controller.signal)
      .then((value) => this.bridgeValue(value))
      .then(
        (payload) => this.deliver(deferred, payload),
        (error) => this.deliver(deferred, JSON.stringify({ error: this.guestError(error) })),
      );
    return deferred.handle;
  }

  private deliver(deferred: QuickJSDeferredPromise, payload: string): void {
    this.pending.delete(deferred);
    // A bridge that finishes after the call ended (timeout, cancel) must not touch freed handles (SBX-13).
    if (this.finished || !deferred.alive) return;
    const handle = this.hostString(payload);
    try {
      deferred.resolve(handle);
    } catch {
      // The guest can no longer run (interrupted); the driver reports why.
    } finally {
      handle.dispose();
      if (deferred.alive) deferred.dispose();
    }
    this.notify();
  }

  /** `{name, code, message}` only: no host stack, redacted (SBX-09). */
  private guestError(error: unknown): { name: string; code: string; message: string } {
    if (this.finished || this.controller?.signal.aborted || this.interruption) return { name: 'Error', code: 'aborted', message: 'The call ended.' };
    const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : 'bridge_error';
    const message = error instanceof Error ? error.message : String(error);
    return { name: 'Error', code, message: this.redact(message) };
  }

  // ---- result ------------------------------------------------------------------------------

  private resultText(value: QuickJSHandle, json: QuickJSHandle): string {
    const ctx = this.ctx;
    const type = ctx.typeof(value);
    if (type === 'undefined') return '';
    let text = value;
    if (type !== 'string') {
      const stringify = this.manage(ctx.getProp(json, 'stringify'));
      text = this.manage(this.guest(() => ctx.callFunction(stringify, json, value)));
      if (ctx.typeof(text) !== 'string') return '';
    }
    // Check the size through the handle before copying the string out (SBX-15).
    const length = this.stringLength(text) ?? 0;
    if (length > this.limits.outputChars) {
      throw new CallFailure('sandbox_limit', `The JavaScript tool returned ${length} characters; the limit is ${this.limits.outputChars}.`, 'output');
    }
    return this.readString(text);
  }

  // ---- strings across the boundary -----------------------------------------------------------

  /** A host string copied into the guest. The host's own copy must never be refused (see CappedWasmMemory.withHeadroom). */
  private hostString(text: string): QuickJSHandle {
    return this.heap.withHeadroom(copyInBytes(text), () => this.ctx.newString(text));
  }

  /**
   * A guest string copied out. QuickJS first makes a UTF-8 copy inside the module (up to three
   * bytes a character); if that were refused the host would silently read an empty string.
   */
  private readString(handle: QuickJSHandle): string {
    const length = this.stringLength(handle);
    if (length === undefined) return '';
    return this.heap.withHeadroom(3 * length + COPY_SLACK_BYTES, () => this.ctx.getString(handle));
  }

  /** The length of a guest string, read without copying it; undefined for anything else. */
  private stringLength(handle: QuickJSHandle): number | undefined {
    const ctx = this.ctx;
    if (ctx.typeof(handle) !== 'string') return undefined;
    const length = ctx.getProp(handle, 'length');
    try {
      return ctx.getNumber(length);
    } finally {
      length.dispose();
    }
  }

  /** The first `chars` characters of a guest string, cut inside the guest; '' if the guest broke `slice`. */
  private sliced(handle: QuickJSHandle, chars: number): QuickJSHandle {
    const ctx = this.ctx;
    const slice = this.manage(ctx.getProp(handle, 'slice'));
    const result = ctx.callFunction(slice, handle, this.manage(ctx.newNumber(0)), this.manage(ctx.newNumber(chars)));
    if (result.error) {
      result.error.dispose();
      return ctx.undefined;
    }
    const cut = this.manage(result.value);
    const length = this.stringLength(cut);
    return length !== undefined && length <= chars ? cut : ctx.undefined;
  }

  private manage(handle: QuickJSHandle): QuickJSHandle {
    return this.scope.manage(handle);
  }
}

/**
 * Each bridge global starts as a getter; the first read evaluates that bridge's snippet and
 * replaces the getter with the value, so unused bridges cost nothing (see guest-prelude.ts).
 */
function installBridgeGetters(ctx: QuickJSContext, install: (name: BridgeName) => QuickJSHandle): void {
  for (const name of BRIDGE_NAMES) {
    ctx.defineProp(ctx.global, name, { configurable: true, enumerable: false, get: () => install(name) });
  }
}

class BridgeFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function parseArgs(json: string): unknown[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value : [];
}

function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new BridgeFailure('invalid_request', `${what} must be a string.`);
  return value;
}

function parseFetchRequest(json: string): GuestFetchRequest {
  const request = JSON.parse(json) as GuestFetchRequest;
  if (!(FETCH_METHODS as readonly string[]).includes(request.method)) {
    throw new BridgeFailure('invalid_request', `Method '${request.method}' is not supported; use one of ${FETCH_METHODS.join(', ')}.`);
  }
  return request;
}

function errorParts(dumped: unknown): { name: string; message: string } {
  if (dumped && typeof dumped === 'object') {
    const d = dumped as { name?: unknown; message?: unknown };
    if (typeof d.message === 'string') return { name: typeof d.name === 'string' ? d.name : 'Error', message: d.message };
    try {
      return { name: '', message: JSON.stringify(dumped) };
    } catch {
      return { name: '', message: String(dumped) };
    }
  }
  return { name: '', message: String(dumped) };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Allocator bookkeeping and emscripten's page rounding on top of the bytes themselves. */
const COPY_SLACK_BYTES = 1024 * 1024;

/**
 * What copying a host string into the guest allocates at once: its UTF-8 bytes (quickjs-emscripten's
 * staging copy) and QuickJS's own string (one or two bytes a character).
 */
function copyInBytes(text: string): number {
  return Buffer.byteLength(text, 'utf8') + 2 * text.length + COPY_SLACK_BYTES;
}

function mib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

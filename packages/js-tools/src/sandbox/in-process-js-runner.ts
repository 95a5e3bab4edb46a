import type { BridgeHost } from './bridge-host';
import type { JsCall, JsCallOutcome, JsRunner } from './js-call';
import { loadFreshQuickJs, loadQuickJs, type SandboxModule } from './quickjs-module';
import { runJsCall } from './run-js-call';

/**
 * The main thread's stack is about 1 MB and shared with Node, and QuickJS in WebAssembly runs on
 * it: a guest stack limit above roughly 400 KiB lets deep recursion overflow the host stack
 * before QuickJS notices, which corrupts the module. In-process calls are capped here.
 */
export const IN_PROCESS_MAX_STACK_BYTES = 256 * 1024;

/**
 * Runs calls in the calling thread: the fastest path, used by tests and benchmarks. It cannot
 * stop a guest stuck inside one long native operation (quickjs-emscripten#219); the server uses
 * WorkerJsRunner, whose watchdog can.
 */
export class InProcessJsRunner implements JsRunner {
  private module: Promise<SandboxModule>;

  constructor(private readonly host: BridgeHost) {
    this.module = loadQuickJs();
  }

  async run(call: JsCall): Promise<JsCallOutcome> {
    const current = this.module;
    const stackBytes = Math.min(call.limits?.stackBytes ?? IN_PROCESS_MAX_STACK_BYTES, IN_PROCESS_MAX_STACK_BYTES);
    const module = await this.module;
    const outcome = await runJsCall(module, { ...call, limits: { ...call.limits, stackBytes } }, this.host);
    // A WebAssembly trap can leave the module's memory inconsistent, and a heap that grew never
    // shrinks: either way the next call starts on a new module (calls still running keep theirs).
    const broken = outcome.status === 'error' && outcome.errorType === 'internal_error';
    if ((broken || module.heap.grown) && this.module === current) this.module = loadFreshQuickJs();
    return outcome;
  }

  async close(): Promise<void> {}
}

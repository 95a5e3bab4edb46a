/**
 * Entry point of a sandbox worker thread (see WorkerJsRunner). It owns one QuickJS module and
 * one bridge host, runs one call at a time, and asks the parent for Google access tokens so all
 * workers share one token cache. Unless the pool turned it off, it keeps a fresh runtime prepared
 * for the next call (see PreparedRuntime).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createBridgeHost, type BridgeHostConfig } from '../bridges/create-bridge-host';
import { BridgeError } from './bridge-host';
import type { JsCall } from './js-call';
import { loadQuickJs, type SandboxModule } from './quickjs-module';
import { executeJsCall, prepareRuntime, runJsCall, type PreparedRuntime, type RunOptions } from './run-js-call';
import type { FromWorker, ToWorker } from './worker-protocol';

const port = parentPort;
if (!port) throw new Error('sandbox-worker must run in a worker thread');

const tokenRequests = new Map<number, { resolve: (token: string) => void; reject: (error: Error) => void }>();
let nextTokenRequest = 1;
const calls = new Map<number, AbortController>();

const { bridge, cancelFlag, prepareRuntimes } = workerData as { bridge: BridgeHostConfig; cancelFlag: Int32Array; prepareRuntimes: boolean };
const host = createBridgeHost(bridge, {
  googleAccessToken: (signal) =>
    new Promise<string>((resolve, reject) => {
      const requestId = nextTokenRequest++;
      tokenRequests.set(requestId, { resolve, reject });
      signal.addEventListener('abort', () => tokenRequests.delete(requestId) && reject(new BridgeError('aborted', 'The call ended.')), { once: true });
      send({ type: 'token-request', requestId });
    }),
});

function send(message: FromWorker): void {
  port?.postMessage(message);
}

/**
 * The runtime the next call takes over (F3): made after the previous call answered and released
 * its own, so the caller never waits for it when calls have any gap between them. Never reused:
 * each call disposes the runtime it took.
 */
let prepared: PreparedRuntime | undefined;

function prepareNext(module: SandboxModule): void {
  if (!prepareRuntimes || prepared) return;
  try {
    prepared = prepareRuntime(module);
  } catch {
    // The next call makes its own runtime, as without preparation.
    prepared = undefined;
  }
}

async function runPrepared(module: SandboxModule, id: number, call: JsCall, options: RunOptions): Promise<void> {
  const next = prepared;
  prepared = undefined;
  const { outcome, release } = await executeJsCall(module, call, host, { ...options, ...(next ? { prepared: next } : {}) });
  calls.delete(id);
  // The parent retires a worker whose heap grew: WebAssembly memory is never given back.
  send({ type: 'done', id, outcome, heapBytes: module.heap.bytes });
  // The caller has its answer; the teardown and the next runtime are paid for after it.
  const releaseError = release();
  // A WebAssembly trap (or a failed release) may have corrupted the module: let the pool start a fresh worker.
  if (releaseError || (outcome.status === 'error' && outcome.errorType === 'internal_error')) process.exit(1);
  prepareNext(module);
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'run': {
      const controller = new AbortController();
      calls.set(message.id, controller);
      const { fileName, code, declared, ...call } = message.call;
      const options: RunOptions = { isCancelled: () => Atomics.load(cancelFlag, 0) === message.id };
      const functionNames = new Set(declared ? [call.functionName] : []);
      const jsCall: JsCall = { ...call, script: { fileName, sliceFor: () => code, functionNames }, signal: controller.signal };
      void loadQuickJs().then(async (module) => {
        if (prepareRuntimes) return runPrepared(module, message.id, jsCall, options);
        const outcome = await runJsCall(module, jsCall, host, options);
        calls.delete(message.id);
        send({ type: 'done', id: message.id, outcome, heapBytes: module.heap.bytes });
        if (outcome.status === 'error' && outcome.errorType === 'internal_error') process.exit(1);
      });
      return;
    }
    case 'cancel':
      calls.get(message.id)?.abort();
      return;
    case 'token': {
      const pending = tokenRequests.get(message.requestId);
      tokenRequests.delete(message.requestId);
      if (!pending) return;
      if (message.token !== undefined) pending.resolve(message.token);
      else pending.reject(new BridgeError(message.error?.code ?? 'google_auth_failed', message.error?.message ?? 'No access token.'));
      return;
    }
  }
});

void loadQuickJs().then((module) => {
  prepareNext(module);
  send({ type: 'ready' });
});

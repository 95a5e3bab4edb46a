/**
 * Entry point of a sandbox worker thread (see WorkerJsRunner). It owns one QuickJS module and
 * one bridge host, runs one call at a time, and asks the parent for Google access tokens so all
 * workers share one token cache.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createBridgeHost, type BridgeHostConfig } from '../bridges/create-bridge-host';
import { BridgeError } from './bridge-host';
import { loadQuickJs } from './quickjs-module';
import { runJsCall } from './run-js-call';
import type { FromWorker, ToWorker } from './worker-protocol';

const port = parentPort;
if (!port) throw new Error('sandbox-worker must run in a worker thread');

const tokenRequests = new Map<number, { resolve: (token: string) => void; reject: (error: Error) => void }>();
let nextTokenRequest = 1;
const calls = new Map<number, AbortController>();

const { bridge, cancelFlag } = workerData as { bridge: BridgeHostConfig; cancelFlag: Int32Array };
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

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'run': {
      const controller = new AbortController();
      calls.set(message.id, controller);
      const { fileName, code, ...call } = message.call;
      void loadQuickJs().then(async (module) => {
        const outcome = await runJsCall(module, { ...call, script: { fileName, sliceFor: () => code }, signal: controller.signal }, host, {
          isCancelled: () => Atomics.load(cancelFlag, 0) === message.id,
        });
        calls.delete(message.id);
        // The parent retires a worker whose heap grew: WebAssembly memory is never given back.
        send({ type: 'done', id: message.id, outcome, heapBytes: module.heap.bytes });
        // A WebAssembly trap may have corrupted the module: let the pool start a fresh worker.
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

void loadQuickJs().then(() => send({ type: 'ready' }));

import type { JsCall, JsCallOutcome } from './js-call';

/** A call as it crosses to a sandbox worker: plain data, the code already sliced. */
export interface WorkerCall extends Omit<JsCall, 'script' | 'signal' | 'sessionId'> {
  readonly fileName: string;
  readonly code: string;
  /** The file declares `functionName` (ScriptCode.functionNames): the worker gets only its slice. */
  readonly declared: boolean;
}

export type ToWorker =
  | { readonly type: 'run'; readonly id: number; readonly call: WorkerCall }
  | { readonly type: 'cancel'; readonly id: number }
  | { readonly type: 'token'; readonly requestId: number; readonly token?: string; readonly error?: { code: string; message: string } };

export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly id: number; readonly outcome: JsCallOutcome; readonly heapBytes: number }
  | { readonly type: 'token-request'; readonly requestId: number };

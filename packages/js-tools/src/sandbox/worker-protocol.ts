import type { JsCallOutcome } from './js-call';
import type { SandboxLimits } from './sandbox-limits';

/** A call as it crosses to a sandbox worker: plain data, the code already sliced. */
export interface WorkerCall {
  readonly fileName: string;
  readonly code: string;
  readonly functionName: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly limits?: Partial<SandboxLimits>;
}

export type ToWorker =
  | { readonly type: 'run'; readonly id: number; readonly call: WorkerCall }
  | { readonly type: 'cancel'; readonly id: number }
  | { readonly type: 'token'; readonly requestId: number; readonly token?: string; readonly error?: { code: string; message: string } };

export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly id: number; readonly outcome: JsCallOutcome }
  | { readonly type: 'token-request'; readonly requestId: number };

/** What one JavaScript tool call may use. Every call gets its own QuickJS runtime with these limits. */
export interface SandboxLimits {
  /**
   * Heap of the call's runtime (16 MiB by default): everything the guest allocates, strings and
   * ArrayBuffers included, and what bridges hand it. Exceeding it is `sandbox_limit` (memory).
   * Enforced by the ceiling of the module's WebAssembly memory (see CappedWasmMemory).
   */
  readonly memoryBytes: number;
  /** Native stack of the call's runtime (1 MiB by default); deep recursion is `sandbox_limit` (stack). */
  readonly stackBytes: number;
  /**
   * Time the guest may spend running JavaScript, enforced by QuickJS's interrupt handler (which
   * only runs while guest code runs). Time spent waiting on a bridge (fetch, tokens) does not
   * count; the call's wall-clock timeout bounds that. Undefined: the wall-clock timeout.
   */
  readonly cpuMs?: number;
  /** Largest result, in characters, taken out of the sandbox; more is `sandbox_limit` (output). */
  readonly outputChars: number;
  /** Largest params (as JSON, `_env` included), in characters, handed to the guest; more is `sandbox_limit` (input). */
  readonly inputChars: number;
  /**
   * Largest value one bridge call hands the guest (a file read, a response body as text or
   * base64, a library source), in characters. More is a guest error with code `too_large`.
   */
  readonly bridgeChars: number;
  /** Response bodies a call may hold on the host at once, in bytes; bodies already read are released first. */
  readonly heldBodyBytes: number;
  /** console lines kept per call, and characters per line. */
  readonly maxLogLines: number;
  readonly maxLogLineChars: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = Object.freeze({
  memoryBytes: 16 * 1024 * 1024,
  stackBytes: 1024 * 1024,
  outputChars: 4 * 1024 * 1024,
  // A quarter of the heap each: the JSON text and the parsed value must fit side by side.
  inputChars: 4 * 1024 * 1024,
  bridgeChars: 4 * 1024 * 1024,
  heldBodyBytes: 32 * 1024 * 1024,
  maxLogLines: 200,
  maxLogLineChars: 4000,
});

export function resolveLimits(limits: Partial<SandboxLimits> | undefined): SandboxLimits {
  return limits ? { ...DEFAULT_SANDBOX_LIMITS, ...limits } : DEFAULT_SANDBOX_LIMITS;
}

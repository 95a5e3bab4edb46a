/** What the sandbox uses of WebAssembly.Memory (the ES2022 lib has no WebAssembly types; they come with DOM). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}
const WasmMemory = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory } }).WebAssembly.Memory;

const PAGE_BYTES = 64 * 1024;
/** The 32-bit module cannot address more; emscripten's own default maximum. */
const MAX_PAGES = 32768;

/** The size the QuickJS build links with (emscripten's INITIAL_MEMORY); a smaller memory is refused at instantiation. */
export const INITIAL_HEAP_BYTES = 16 * 1024 * 1024;

/**
 * What a fresh module uses before any call allocates: static data, the C stack and QuickJS's own
 * runtime. Measured on quickjs-emscripten 0.32 (release-sync): a fresh module can hand out about
 * 10.8 MiB of its 16 MiB, so 5.2 MiB is taken; 6 MiB leaves a little slack.
 */
export const RESERVED_HEAP_BYTES = 6 * 1024 * 1024;

/**
 * The WebAssembly memory of one QuickJS module, with a ceiling on its growth.
 *
 * QuickJS's own limit (`setMemoryLimit`) does not bound what a runtime holds in this build: it
 * adds `malloc_usable_size(ptr)` to its running total, and emscripten's libc reports 0 there, so
 * each allocation counts as 8 bytes of overhead whatever its size. The limit then only refuses a
 * single allocation larger than itself; big strings, ArrayBuffers and arrays never add up
 * (quickjs-emscripten#271) and the heap grows to the 2 GiB the module can address, never to
 * shrink again.
 *
 * Every allocation, the guest's and the host's (strings handed in through bridges), comes out of
 * this memory, and emscripten grows it through `grow()` when malloc runs out. Refusing to grow
 * makes malloc return NULL, which QuickJS reports as an out-of-memory exception. The ceiling is
 * the reserve plus the budgets of the calls running on the module, so a call can hold about its
 * `memoryBytes` and no more.
 */
export class CappedWasmMemory extends WasmMemory {
  private granted = 0;
  private headroom = 0;
  private refusedGrowths = 0;
  private lastGrowthRefused = false;

  constructor() {
    super({ initial: INITIAL_HEAP_BYTES / PAGE_BYTES, maximum: MAX_PAGES });
  }

  get bytes(): number {
    return this.buffer.byteLength;
  }

  /** True once the heap grew past its initial size; it never gives the memory back. */
  get grown(): boolean {
    return this.bytes > INITIAL_HEAP_BYTES;
  }

  get ceilingBytes(): number {
    return Math.max(INITIAL_HEAP_BYTES, RESERVED_HEAP_BYTES + this.granted + this.headroom);
  }

  /** Raises the ceiling by one call's budget while it runs; the returned function gives it back. */
  grant(bytes: number): () => void {
    this.granted += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.granted -= bytes;
    };
  }

  /**
   * Lets the host allocate `bytes` more for `work`, even when the guest filled its budget.
   * quickjs-emscripten does not check malloc's result when it copies a host string in (it would
   * write at address 0), so the host must never be refused. What the host hands in is capped
   * (see SandboxLimits.bridgeChars), so this stays bounded; the guest then meets its ceiling on
   * its next allocation.
   */
  withHeadroom<T>(bytes: number, work: () => T): T {
    this.headroom += bytes;
    try {
      return work();
    } finally {
      this.headroom -= bytes;
    }
  }

  /** How many times the heap refused to grow; only ever goes up. */
  get refusals(): number {
    return this.refusedGrowths;
  }

  /**
   * Whether the last attempt to grow was refused. emscripten asks for a generous size first and
   * smaller ones after, so a refusal followed by a growth is an allocation that succeeded.
   */
  get outOfRoom(): boolean {
    return this.lastGrowthRefused;
  }

  override grow(delta: number): number {
    if (this.bytes + delta * PAGE_BYTES > this.ceilingBytes) {
      this.refusedGrowths++;
      this.lastGrowthRefused = true;
      // emscripten's heap resize catches this and makes malloc return NULL.
      throw new RangeError('The sandbox heap is at its ceiling.');
    }
    const previous = super.grow(delta);
    this.lastGrowthRefused = false;
    return previous;
  }
}

import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import { CappedWasmMemory } from './capped-wasm-memory';

/** A QuickJS module and its memory, whose ceiling every call raises by its own budget while it runs. */
export interface SandboxModule {
  readonly quickjs: QuickJSWASMModule;
  readonly heap: CappedWasmMemory;
}

/**
 * The QuickJS WebAssembly module, loaded once per thread and shared by every call (each call
 * still gets its own runtime). The single-file CommonJS build is used everywhere: it loads under
 * Jest (the wasmfile builds need a dynamic import that Jest refuses) and costs about 20 ms more
 * at start-up, once. The build imports its memory, so it runs in a CappedWasmMemory of ours.
 */
let release: Promise<SandboxModule> | undefined;

export function loadQuickJs(): Promise<SandboxModule> {
  release ??= newSandboxModule();
  return release;
}

/**
 * A fresh module, for a runner that must replace one broken by a WebAssembly trap, or one whose
 * heap grew (a WebAssembly memory never shrinks; dropping the module is the only way to give the
 * memory back).
 */
export function loadFreshQuickJs(): Promise<SandboxModule> {
  release = undefined;
  return loadQuickJs();
}

async function newSandboxModule(): Promise<SandboxModule> {
  const heap = new CappedWasmMemory();
  const variant = newVariant(require('@jitl/quickjs-singlefile-cjs-release-sync').default, { wasmMemory: heap });
  const quickjs = await newQuickJSWASMModuleFromVariant(variant);
  return { quickjs, heap };
}

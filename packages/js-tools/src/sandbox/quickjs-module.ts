import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

/**
 * The QuickJS WebAssembly module, loaded once per thread and shared by every call (each call
 * still gets its own runtime). The single-file CommonJS build is used everywhere: it loads under
 * Jest (the wasmfile builds need a dynamic import that Jest refuses) and costs about 20 ms more
 * at start-up, once.
 */
let release: Promise<QuickJSWASMModule> | undefined;

export function loadQuickJs(): Promise<QuickJSWASMModule> {
  release ??= newQuickJSWASMModuleFromVariant(require('@jitl/quickjs-singlefile-cjs-release-sync').default);
  return release;
}

/** A fresh module, for a runner that must replace one broken by a WebAssembly trap. */
export function loadFreshQuickJs(): Promise<QuickJSWASMModule> {
  release = undefined;
  return loadQuickJs();
}

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBridgeHost, InProcessJsRunner, JsToolCatalogue, type ClosableBridgeHost } from '@oneclaw/js-tools';
import { ToolExecutionEngine, ToolRegistry, type ToolResult } from '@oneclaw/tool-registry';
import { BUILTIN_JS_LIB_FOLDER, BUILTIN_JS_TOOLS_FOLDER } from '../index';
import { FakeGoogleApi } from './fake-google-api';

export interface ToolHarness {
  readonly api: FakeGoogleApi;
  readonly registry: ToolRegistry;
  /** The files root the `fs` bridge is confined to (a fresh temp folder). */
  readonly filesRoot: string;
  /** Runs a shipped tool through the execution engine (argument validation included). */
  call(toolName: string, params?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/**
 * The shipped JS tools, loaded from tools-assets/js/tools into a registry and run for real in
 * QuickJS, with every Google call going to the fake Google API through its intercepting proxy.
 */
export interface ToolHarnessOptions {
  /** Manifest base names to load (e.g. ['google_gmail']); default every shipped file. */
  readonly files?: readonly string[];
}

export async function startToolHarness(options: ToolHarnessOptions = {}): Promise<ToolHarness> {
  const api = await FakeGoogleApi.start();
  const filesRoot = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-tools-'));
  const host: ClosableBridgeHost = createBridgeHost(
    { filesRoot, fetch: { proxyUrl: api.proxyUrl, caCertificates: [api.caCertificate] }, libraryFolders: [BUILTIN_JS_LIB_FOLDER], defaultTimeZone: 'UTC' },
    { googleAccessToken: async () => api.accessToken },
  );
  const runner = new InProcessJsRunner(host);
  const registry = new ToolRegistry();
  const unload = loadShippedTools(registry, runner, options.files);
  const engine = new ToolExecutionEngine(registry);
  let calls = 0;
  return {
    api,
    registry,
    filesRoot,
    async call(toolName, params = {}) {
      calls += 1;
      const outcome = await engine.execute({ callId: `call-${calls}`, toolName, arguments: params }, { sessionId: 'harness', activeToolNames: registry.toolNames() });
      return outcome.result;
    },
    async close() {
      await runner.close();
      await host.close();
      await api.close();
      rmSync(filesRoot, { recursive: true, force: true });
      unload();
    },
  };
}

/**
 * Loads the shipped files with the product's own catalogue loader into a scratch folder holding
 * only the named files (so a test of one group does not depend on the others), and refuses to
 * start if any of them has a problem: a shipped file must load cleanly.
 */
function loadShippedTools(registry: ToolRegistry, runner: InProcessJsRunner, only: readonly string[] | undefined): () => void {
  let folder = BUILTIN_JS_TOOLS_FOLDER;
  let scratch: string | undefined;
  if (only) {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-shipped-'));
    for (const base of only) {
      for (const ext of ['.json', '.js']) copyFileSync(path.join(BUILTIN_JS_TOOLS_FOLDER, base + ext), path.join(scratch, base + ext));
    }
    folder = scratch;
  }
  const catalogue = new JsToolCatalogue({ registry, runner, folders: [{ path: folder, kind: 'js-built-in' }] });
  const report = catalogue.loadAll();
  const problems = report.files.flatMap((f) => f.problems);
  if (problems.length > 0) throw new Error(`Shipped tool files have problems:\n${problems.map((p) => `${p.severity} ${p.file} ${p.tool ?? ''}: ${p.message}`).join('\n')}`);
  return () => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  };
}

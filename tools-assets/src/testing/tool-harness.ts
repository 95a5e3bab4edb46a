import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileScript, createBridgeHost, InProcessJsRunner, JsTool, type ClosableBridgeHost } from '@oneclaw/js-tools';
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
  loadShippedTools(registry, runner, options.files);
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
    },
  };
}

interface ManifestEntry {
  _meta?: boolean;
  name: string;
  description: string;
  display_name?: string;
  function?: string;
  parameters?: Record<string, unknown>;
  timeoutSeconds?: number;
}

/** A minimal loader for the shipped files; the product uses the js-tools catalogue loader. */
function loadShippedTools(registry: ToolRegistry, runner: InProcessJsRunner, only: readonly string[] | undefined): void {
  for (const file of readdirSync(BUILTIN_JS_TOOLS_FOLDER).filter((f) => f.endsWith('.json')).sort()) {
    const base = file.slice(0, -'.json'.length);
    if (only && !only.includes(base)) continue;
    const manifest = JSON.parse(readFileSync(path.join(BUILTIN_JS_TOOLS_FOLDER, file), 'utf8')) as ManifestEntry | ManifestEntry[];
    const script = compileScript(`${base}.js`, readFileSync(path.join(BUILTIN_JS_TOOLS_FOLDER, `${base}.js`), 'utf8'));
    const origin = { kind: 'js-built-in' as const, fileName: `${base}.js` };
    const entries = Array.isArray(manifest) ? manifest : [manifest];
    const meta = entries[0]?._meta ? entries[0] : undefined;
    if (Array.isArray(manifest)) {
      registry.registerGroup({ name: base, displayName: meta?.display_name ?? base, description: meta?.description ?? base }, origin);
    }
    for (const entry of entries) {
      if (entry._meta) continue;
      const definition = {
        name: entry.name,
        description: entry.description,
        parameters: { type: 'object', ...entry.parameters },
        ...(entry.timeoutSeconds ? { timeoutMs: entry.timeoutSeconds * 1000 } : {}),
      };
      const tool = new JsTool({ definition, script, functionName: entry.function ?? 'execute', runner });
      registry.register(tool, Array.isArray(manifest) ? { ...origin, group: base } : origin);
    }
  }
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  createGoogleTokenProvider,
  JsToolCatalogue,
  SafeFetch,
  UserToolsWatcher,
  WorkerJsRunner,
  type CatalogueReport,
  type FetchPolicy,
  type JsRunner,
} from '@oneclaw/js-tools';
import { createLoadToolGroupTool, ToolExecutionEngine, ToolGroupPrompt, ToolPayloads, ToolRegistry } from '@oneclaw/tool-registry';
import { BUILTIN_JS_LIB_FOLDER, BUILTIN_JS_TOOLS_FOLDER } from '@oneclaw/tools-assets';
import type { ServerConfig } from '../server-config';

export interface ToolRuntimeOptions {
  /** Tests and benchmarks pass an in-process runner; the server runs tools in worker threads. */
  readonly runner?: JsRunner;
  /** Watch the user tools folder for changes (J7); default true. */
  readonly watchUserTools?: boolean;
  readonly onLog?: (level: 'info' | 'warn', message: string) => void;
}

/** Where user data lives inside the data directory (docs/js-tools.md). */
export function dataPaths(dataDir: string) {
  return {
    userTools: path.join(dataDir, 'tools'),
    userLib: path.join(dataDir, 'lib'),
    files: path.join(dataDir, 'files'),
  };
}

/**
 * Every tool the server offers, and what runs them: one registry (the `load_tool_group`
 * meta-tool, the shipped JS tools, the user's JS tools), the execution engine, the provider
 * payload memo and the group listing of the system prompt.
 */
export class ToolRuntime {
  private constructor(
    readonly registry: ToolRegistry,
    readonly engine: ToolExecutionEngine,
    readonly payloads: ToolPayloads,
    readonly prompt: ToolGroupPrompt,
    readonly catalogue: JsToolCatalogue,
    readonly startupReport: CatalogueReport,
    private readonly runner: JsRunner & { close?: () => Promise<void> },
    private readonly watcher: UserToolsWatcher | undefined,
    private readonly http: SafeFetch | undefined,
  ) {}

  static start(config: ServerConfig, options: ToolRuntimeOptions = {}): ToolRuntime {
    const paths = dataPaths(config.dataDir);
    for (const dir of Object.values(paths)) mkdirSync(dir, { recursive: true });
    const fetchPolicy: Omit<FetchPolicy, 'resolve'> = {
      ...(config.outboundProxyUrl ? { proxyUrl: config.outboundProxyUrl } : {}),
      ...(config.extraCaCertificates.length > 0 ? { caCertificates: config.extraCaCertificates } : {}),
    };
    let http: SafeFetch | undefined;
    let googleAccessToken: ((signal: AbortSignal) => Promise<string>) | undefined;
    if (config.google) {
      http = new SafeFetch(fetchPolicy);
      const provider = createGoogleTokenProvider(config.google, http);
      googleAccessToken = (signal) => provider.accessToken(signal);
    }
    const runner =
      options.runner ??
      new WorkerJsRunner({
        bridge: { filesRoot: paths.files, fetch: fetchPolicy, libraryFolders: [BUILTIN_JS_LIB_FOLDER, paths.userLib] },
        ...(googleAccessToken ? { googleAccessToken } : {}),
      });

    const registry = new ToolRegistry();
    registry.register(createLoadToolGroupTool(registry), { kind: 'built-in', fileName: 'load-tool-group-tool.ts' });
    const catalogue = new JsToolCatalogue({
      registry,
      runner,
      folders: [
        { path: BUILTIN_JS_TOOLS_FOLDER, kind: 'js-built-in' },
        { path: paths.userTools, kind: 'js-user' },
      ],
    });
    const report = catalogue.loadAll();
    for (const problem of report.problems) {
      options.onLog?.('warn', `tool file ${problem.file}${problem.tool ? ` (${problem.tool})` : ''}: ${problem.message}`);
    }
    const watcher =
      options.watchUserTools === false
        ? undefined
        : new UserToolsWatcher({
            catalogue,
            folder: paths.userTools,
            onChange: (change) =>
              options.onLog?.('info', `user tools reloaded: [${change.changed.map((f) => f.fileName).join(', ')}], removed: [${change.removed.join(', ')}]`),
            onError: (error) => options.onLog?.('warn', `user tools folder: ${error.message}`),
          }).start();
    if (runner instanceof WorkerJsRunner) void runner.warmUp();
    return new ToolRuntime(
      registry,
      new ToolExecutionEngine(registry),
      new ToolPayloads(registry),
      new ToolGroupPrompt(registry),
      catalogue,
      report,
      runner,
      watcher,
      http,
    );
  }

  async close(): Promise<void> {
    this.watcher?.close();
    await this.runner.close?.();
    await this.http?.close();
  }
}

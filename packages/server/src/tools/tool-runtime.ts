import { mkdirSync } from 'node:fs';
import type { EventStore } from '@oneclaw/core';
import {
  createGoogleTokenProvider,
  JsToolCatalogue,
  SafeFetch,
  UserToolManager,
  UserToolsWatcher,
  WorkerJsRunner,
  type CatalogueReport,
  type FetchPolicy,
  type JsRunner,
} from '@oneclaw/js-tools';
import { ToolExecutionEngine, ToolGroupPrompt, ToolPayloads, ToolRegistry } from '@oneclaw/tool-registry';
import { BUILTIN_JS_LIB_FOLDER, BUILTIN_JS_TOOLS_FOLDER } from '@oneclaw/tools-assets';
import type { ServerConfig } from '../server-config';
import { registerBuiltinTools } from './builtin/builtin-tools';
import { dataPaths } from './data-paths';

export interface ToolRuntimeOptions {
  /** The event store (search_history reads past sessions from it). */
  readonly store: EventStore;
  /** Tests and benchmarks pass an in-process runner; the server runs tools in worker threads. */
  readonly runner?: JsRunner;
  /** Watch the user tools folder for changes (J7); default true. */
  readonly watchUserTools?: boolean;
  readonly onLog?: (level: 'info' | 'warn', message: string) => void;
}

/**
 * Every tool the server offers, and what runs them: one registry (the TypeScript built-ins, the
 * shipped JS tools, the user's JS tools), the execution engine, the provider payload memo and
 * the group listing of the system prompt.
 */
export class ToolRuntime {
  private constructor(
    readonly registry: ToolRegistry,
    readonly engine: ToolExecutionEngine,
    readonly payloads: ToolPayloads,
    readonly prompt: ToolGroupPrompt,
    readonly catalogue: JsToolCatalogue,
    readonly startupReport: CatalogueReport,
    readonly userTools: UserToolManager,
    private readonly runner: JsRunner & { close?: () => Promise<void> },
    private readonly watcher: UserToolsWatcher | undefined,
    private readonly http: SafeFetch,
  ) {}

  static start(config: ServerConfig, options: ToolRuntimeOptions): ToolRuntime {
    const paths = dataPaths(config.dataDir);
    for (const dir of Object.values(paths)) mkdirSync(dir, { recursive: true });
    const fetchPolicy: Omit<FetchPolicy, 'resolve'> = {
      ...(config.outboundProxyUrl ? { proxyUrl: config.outboundProxyUrl } : {}),
      ...(config.extraCaCertificates.length > 0 ? { caCertificates: config.extraCaCertificates } : {}),
    };
    // The host-side HTTP client of TypeScript tools (webfetch) and of Google sign-in.
    const http = new SafeFetch(fetchPolicy);
    let googleAccessToken: ((signal: AbortSignal) => Promise<string>) | undefined;
    if (config.google) {
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
    const catalogue = new JsToolCatalogue({
      registry,
      runner,
      folders: [
        { path: BUILTIN_JS_TOOLS_FOLDER, kind: 'js-built-in' },
        { path: paths.userTools, kind: 'js-user' },
      ],
    });
    const userTools = new UserToolManager({ folder: paths.userTools, catalogue, registry });
    // Built-ins first: their core tools and groups come before the JS ones in every listing.
    registerBuiltinTools({ registry, paths, store: options.store, runner, http, userTools });
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
      userTools,
      runner,
      watcher,
      http,
    );
  }

  async close(): Promise<void> {
    this.watcher?.close();
    await this.runner.close?.();
    await this.http.close();
  }
}

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
import { BUILTIN_JS_LIB_FOLDER, BUILTIN_JS_TOOLS_FOLDER, BUILTIN_SKILLS_FOLDER } from '@oneclaw/tools-assets';
import { PdfService } from '@oneclaw/tools-pdf';
import { BrowserService } from '@oneclaw/tools-web';
import type { ConfigServices } from '../config/config-services';
import { ExpiringSecrets } from '../security/expiring-secrets';
import type { SecretRedactor } from '../security/secret-redactor';
import type { ScheduledTaskService } from '../scheduled-tasks/scheduled-task-service';
import type { ServerConfig } from '../server-config';
import { registerBuiltinTools } from './builtin/builtin-tools';
import { CorePromptSections } from './builtin/core/core-prompt-sections';
import { HistoryIndex } from './builtin/core/history-index';
import { MemoryFile } from './builtin/core/memory-file';
import { SkillLibrary } from './builtin/core/skill-library';
import { dataPaths } from './data-paths';
import type { AttachmentReader } from '../turns/load-attachments';

export interface ToolRuntimeOptions {
  /** The event store (search_history reads past sessions from it). */
  readonly store: EventStore;
  /** Tests and benchmarks pass an in-process runner; the server runs tools in worker threads. */
  readonly runner?: JsRunner;
  /** Watch the user tools folder for changes (J7); default true. */
  readonly watchUserTools?: boolean;
  readonly onLog?: (level: 'info' | 'warn', message: string) => void;
  /**
   * The scheduled tasks behind the scheduled_tasks tools; the server creates it before the tools
   * (composition.ts: its runs reach the TurnRunner through a port completed afterwards).
   */
  readonly scheduledTasks: ScheduledTaskService;
  /**
   * The configuration (config tools, create_agent); the server makes it before the tools and
   * starts it once the registry is complete.
   */
  readonly config: ConfigServices;
  /** Attached files: the pdf tools read an attached PDF by the path `attachment:<hash>`. */
  readonly attachments?: AttachmentReader;
  /**
   * The server's redactor (events, logs, model requests): it learns the secrets tools obtain while
   * the server runs, such as each refreshed Google access token, before any tool is given them.
   * The engine scrubs tool results with it before it cuts them, and hands it to tools that cut.
   */
  readonly redactor: SecretRedactor;
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
    private readonly browser: BrowserService,
    private readonly pdf: PdfService,
    /** search_history's index (SQLite's anonymous temporary database), closed by close(). */
    private readonly history: HistoryIndex,
    /** The skills and memory sections of the system prompt, after the group listing. */
    readonly corePrompt: CorePromptSections,
  ) {}

  static start(config: ServerConfig, options: ToolRuntimeOptions): ToolRuntime {
    const paths = dataPaths(config.dataDir);
    for (const dir of Object.values(paths)) mkdirSync(dir, { recursive: true });
    const fetchPolicy: Omit<FetchPolicy, 'resolve'> = {
      // Home users point tools at their LAN (NAS, printer, Home Assistant); off by default (SSRF).
      allowPrivateNetwork: config.toolsAllowPrivateNetwork,
      ...(config.outboundProxyUrl ? { proxyUrl: config.outboundProxyUrl } : {}),
      ...(config.extraCaCertificates.length > 0 ? { caCertificates: config.extraCaCertificates } : {}),
    };
    // The host-side HTTP client of TypeScript tools (webfetch) and of Google sign-in.
    const http = new SafeFetch(fetchPolicy);
    let googleAccessToken: ((signal: AbortSignal) => Promise<string>) | undefined;
    if (config.google) {
      const tokens = new ExpiringSecrets(options.redactor);
      const provider = createGoogleTokenProvider(config.google, http, { onToken: (token, expiresAt) => tokens.add(token, expiresAt) });
      googleAccessToken = (signal) => provider.accessToken(signal);
    }
    const runner =
      options.runner ??
      new WorkerJsRunner({
        bridge: { filesRoot: paths.files, fetch: fetchPolicy, libraryFolders: [BUILTIN_JS_LIB_FOLDER, paths.userLib] },
        maxWorkers: config.jsWorkers,
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
    // PDF workers start on the first PDF call, not here.
    const pdf = new PdfService({ filesRoot: paths.files, ...(options.attachments ? { attachments: options.attachments } : {}) });
    const skills = new SkillLibrary({ builtinFolder: BUILTIN_SKILLS_FOLDER, userFolder: paths.skills, ...(options.onLog ? { onLog: options.onLog } : {}) });
    const memory = new MemoryFile({ folder: paths.memory, timeZone: config.timeZone });
    const history = new HistoryIndex({ store: options.store, memory, timeZone: config.timeZone });
    // Chromium for the browser tool: launched on the first call, closed when idle and in close().
    const browser = new BrowserService(config.browserPath === undefined ? {} : { executablePath: config.browserPath });
    registerBuiltinTools({
      registry,
      paths,
      store: options.store,
      runner,
      http,
      browser,
      userTools,
      pdf,
      scheduledTasks: options.scheduledTasks,
      skills,
      memory,
      history,
      execEnabled: config.execEnabled,
      config: options.config,
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
            onChange: (change) => options.onLog?.('info', `user tools reloaded: [${change.changed.map((f) => f.fileName).join(', ')}], removed: [${change.removed.join(', ')}]`),
            onError: (error) => options.onLog?.('warn', `user tools folder: ${error.message}`),
          }).start();
    if (runner instanceof WorkerJsRunner) void runner.warmUp();
    return new ToolRuntime(
      registry,
      new ToolExecutionEngine(registry, { redact: (text) => options.redactor.redactText(text) }),
      new ToolPayloads(registry),
      new ToolGroupPrompt(registry),
      catalogue,
      report,
      userTools,
      runner,
      watcher,
      http,
      browser,
      pdf,
      history,
      new CorePromptSections(skills, memory, options.onLog),
    );
  }

  async close(): Promise<void> {
    this.history.close(); // first: synchronous, and nothing below may keep it open
    this.watcher?.close();
    await this.runner.close?.();
    await this.browser.close();
    await this.http.close();
    await this.pdf.close();
  }
}

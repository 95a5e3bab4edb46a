import type { EventStore } from '@oneclaw/core';
import { ConfinedFs, type JsRunner, type SafeFetch, type UserToolManager } from '@oneclaw/js-tools';
import { createLoadToolGroupTool, type Tool, type ToolGroupDefinition, type ToolRegistry } from '@oneclaw/tool-registry';
import { createPdfTools, PDF_TOOL_GROUP, type PdfService } from '@oneclaw/tools-pdf';
import { createBrowserTool, createWebfetchTool, type BrowserService } from '@oneclaw/tools-web';
import type { ConfigServices } from '../../config/config-services';
import type { ScheduledTaskService } from '../../scheduled-tasks/scheduled-task-service';
import type { DataPaths } from '../data-paths';
import { createExecTool } from './core/exec-tool';
import type { HistoryIndex } from './core/history-index';
import { createJsEvalTool } from './core/js-eval-tool';
import { createLoadSkillTool } from './core/load-skill-tool';
import type { MemoryFile } from './core/memory-file';
import { createSaveMemoryTool } from './core/save-memory-tool';
import { createSearchHistoryTool } from './core/search-history-tool';
import type { SkillLibrary } from './core/skill-library';
import { createCreateAgentTool } from './config/agent-tools';
import { createConfigTools } from './config/config-tools';
import { createJsToolManagementTools } from './js-tool-management/js-tool-management-tools';
import { createScheduledTaskTools } from './scheduled-tasks/scheduled-task-tools';

/**
 * The built-in TypeScript groups, as the origin routing spec grouped them (RFC-040 as first
 * implemented; CATALOGUE.md section 8). Listed in the prompt in this order, before the JS groups.
 */
export const BUILTIN_GROUPS = {
  config: {
    name: 'config',
    displayName: 'Configuration',
    description: 'Settings: providers, models, agents, env vars, enabled tools.',
  },
  pdf: PDF_TOOL_GROUP,
  scheduled_tasks: {
    name: 'scheduled_tasks',
    displayName: 'Scheduled Tasks',
    description: 'Run a prompt later: once, daily or weekly.',
  },
  js_tool_management: {
    name: 'js_tool_management',
    displayName: 'JS Tool Management',
    description: 'Create and edit your own JavaScript tools.',
  },
} as const satisfies Record<string, ToolGroupDefinition>;

/** What the built-in tools work with. Everything here is created before the tools are registered. */
export interface BuiltinToolServices {
  readonly registry: ToolRegistry;
  readonly paths: DataPaths;
  /** The event store: search_history reads past sessions from it. */
  readonly store: EventStore;
  /** The QuickJS sandbox that runs JS tools; js_eval runs in it too. */
  readonly runner: JsRunner;
  /** The SSRF-checked HTTP client of tools (webfetch); its policy also governs the browser. */
  readonly http: SafeFetch;
  /** The system Chromium (browser), launched on first use; ToolRuntime closes it. */
  readonly browser: BrowserService;
  /** The user tools folder (js_tool_management). */
  readonly userTools: UserToolManager;
  /** Shipped and user skills (load_skill; the prompt's skills section). */
  readonly skills: SkillLibrary;
  /** The memory file (save_memory; the prompt's memory section; search_history). */
  readonly memory: MemoryFile;
  /** Full-text index of past sessions and memory (search_history). */
  readonly history: HistoryIndex;
  /** ONECLAW_EXEC_ENABLED: exec runs commands only when true. */
  readonly execEnabled: boolean;
  /** PDF files of the files folder, parsed in worker threads (pdf group). */
  readonly pdf: PdfService;
  /** Scheduled tasks and their runs (scheduled_tasks group); the scheduler runs them. */
  readonly scheduledTasks: ScheduledTaskService;
  /** The configuration stream and its services (create_agent, config group). */
  readonly config: ConfigServices;
}

/** Source file recorded for built-ins (the settings screen groups tools by source). */
const source = (fileName: string, group?: string) => ({ kind: 'built-in' as const, fileName, ...(group ? { group } : {}) });

/**
 * Registers every TypeScript tool: the core tools first, in the origin's order (the order the
 * model sees them in; stable, so provider prompt caches stay warm), then the four groups. The JS
 * catalogue is loaded after this, so its core tools follow these and its groups follow these.
 */
export function registerBuiltinTools(services: BuiltinToolServices): void {
  const { registry } = services;
  const core = (tool: Tool, fileName: string) => registry.register(tool, source(fileName));
  const group = (definition: ToolGroupDefinition, tools: readonly Tool[], fileName: string) => {
    registry.registerGroup(definition, { kind: 'built-in', fileName });
    for (const tool of tools) registry.register(tool, source(fileName, definition.name));
  };

  // ---- core tools (always sent) --------------------------------------------------------------
  core(createLoadSkillTool(services.skills), 'load-skill-tool.ts');
  core(createLoadToolGroupTool(registry), 'load-tool-group-tool.ts');
  core(createSaveMemoryTool(services.memory), 'save-memory-tool.ts');
  core(createSearchHistoryTool(services.history), 'search-history-tool.ts');
  core(
    createExecTool({ enabled: services.execEnabled, files: new ConfinedFs({ root: services.paths.files }), timeZone: () => services.config.settings.timeZone() }),
    'exec-tool.ts',
  );
  core(createJsEvalTool(services.runner), 'js-eval-tool.ts');
  core(createWebfetchTool(services.http), 'webfetch-tool.ts');
  core(createBrowserTool({ browser: services.browser, policy: services.http.policy, filesRoot: services.paths.files }), 'browser-tool.ts');
  core(createCreateAgentTool(services.config.agentService), 'agent-tools.ts');

  // ---- groups --------------------------------------------------------------------------------
  group(BUILTIN_GROUPS.config, createConfigTools(services.config, registry), 'config-tools.ts');
  group(BUILTIN_GROUPS.pdf, createPdfTools(services.pdf), 'pdf-tools.ts');
  group(BUILTIN_GROUPS.scheduled_tasks, createScheduledTaskTools(services.scheduledTasks), 'scheduled-task-tools.ts');
  group(BUILTIN_GROUPS.js_tool_management, createJsToolManagementTools(services.userTools), 'js-tool-management-tools.ts');
}

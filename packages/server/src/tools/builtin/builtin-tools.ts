import type { EventStore } from '@oneclaw/core';
import type { JsRunner, SafeFetch, UserToolManager } from '@oneclaw/js-tools';
import { createLoadToolGroupTool, type Tool, type ToolGroupDefinition, type ToolRegistry } from '@oneclaw/tool-registry';
import type { DataPaths } from '../data-paths';

/**
 * The built-in TypeScript groups, as the origin routing spec grouped them (RFC-040 as first
 * implemented; CATALOGUE.md section 8). Listed in the prompt in this order, before the JS groups.
 */
export const BUILTIN_GROUPS = {
  config: {
    name: 'config',
    displayName: 'Configuration',
    description: 'Manage LLM providers and models, agents, settings, environment variables for tools, and which tools are enabled.',
  },
  pdf: {
    name: 'pdf',
    displayName: 'PDF Tools',
    description: 'Read PDF files: page count and metadata, text of chosen pages, and a page rendered as a PNG image.',
  },
  scheduled_tasks: {
    name: 'scheduled_tasks',
    displayName: 'Scheduled Tasks',
    description: 'Schedule a prompt to run once, daily or weekly as a new conversation; list, run now, update and delete tasks.',
  },
  js_tool_management: {
    name: 'js_tool_management',
    displayName: 'JS Tool Management',
    description: 'Create, list, update and delete your own JavaScript tools (run in the sandbox, available at once).',
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
  /** The SSRF-checked HTTP client of tools (webfetch). */
  readonly http: SafeFetch;
  /** The user tools folder (js_tool_management). */
  readonly userTools: UserToolManager;
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
  // slot: load_skill
  core(createLoadToolGroupTool(registry), 'load-tool-group-tool.ts');
  // slot: save_memory
  // slot: search_history
  // slot: exec
  // slot: js_eval
  // slot: webfetch
  // slot: browser
  // slot: create_agent

  // ---- groups --------------------------------------------------------------------------------
  // slot: config group
  // slot: pdf group
  // slot: scheduled_tasks group
  // slot: js_tool_management group
  void group;
}

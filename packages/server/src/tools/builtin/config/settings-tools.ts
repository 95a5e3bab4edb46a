import { CONFIG_SETTING_KEYS, type ToolTargetKind } from '@oneclaw/core';
import { builtinTool, toolError, type Tool, type ToolRegistry } from '@oneclaw/tool-registry';
import type { EnvVarService } from '../../../config/env-var-service';
import type { SettingsService } from '../../../config/settings-service';
import type { ToolEnablement } from '../../../config/tool-enablement';
import { json, toolOrigin } from './tool-origin';

const settingKey = { type: 'string', minLength: 1, maxLength: 100, description: `The setting: ${CONFIG_SETTING_KEYS.join(' or ')}.` } as const;

interface EnvVarParams {
  readonly action: 'list' | 'set' | 'delete';
  readonly key?: string;
  readonly value?: string;
}

interface ToolEnabledParams {
  readonly name: string;
  readonly enabled: boolean;
  readonly type?: ToolTargetKind;
}

export interface SettingsToolServices {
  readonly settings: SettingsService;
  readonly envVars: EnvVarService;
  readonly registry: ToolRegistry;
  readonly enablement: ToolEnablement;
}

/** get_config, set_config, manage_env_var, list_tool_states, set_tool_enabled (config group). */
export function createSettingsTools(services: SettingsToolServices): Tool[] {
  const { settings, envVars, registry, enablement } = services;
  return [
    builtinTool<{ readonly key: string }>(
      {
        name: 'get_config',
        description: `Reads a setting: ${CONFIG_SETTING_KEYS.join(', ')}.`,
        parameters: { type: 'object', properties: { key: settingKey }, required: ['key'] },
        timeoutMs: 10_000,
      },
      async (params) => {
        const setting = await settings.get(params.key);
        return `${setting.key} = ${setting.value}${setting.isDefault ? ' (default)' : ''}\n${setting.description}`;
      },
    ),
    builtinTool<{ readonly key: string; readonly value: string }>(
      {
        name: 'set_config',
        description: 'Changes a setting: theme_mode (system, light or dark) or timezone (an IANA name such as Europe/Paris, used by scheduled tasks).',
        parameters: {
          type: 'object',
          properties: { key: settingKey, value: { type: 'string', maxLength: 200, description: 'The new value.' } },
          required: ['key', 'value'],
        },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const setting = await settings.set(params.key, params.value, toolOrigin(context));
        return setting.changed ? `${setting.key} is now ${setting.value}.` : `${setting.key} already is ${setting.value}.`;
      },
    ),
    builtinTool<EnvVarParams>(
      {
        name: 'manage_env_var',
        description:
          'Lists, sets or deletes environment variables that JavaScript tools read as _env.NAME (API tokens and the like). Values are write-only: they are stored as secrets and never shown again, not even by list.',
        parameters: {
          type: 'object',
          properties: {
            action: { type: 'string', enum: ['list', 'set', 'delete'], description: 'list, set or delete.' },
            key: { type: 'string', maxLength: 64, description: 'Variable name (letters, digits, _), for set and delete.' },
            value: { type: 'string', maxLength: 16_384, writeOnly: true, description: 'The value, for set. Write-only: it is never shown or recorded.' },
          },
          required: ['action'],
        },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        if (params.action === 'list') {
          const list = await envVars.list();
          return json({
            variables: list.map((v) => ({
              name: v.name,
              source: v.source === 'environment' ? `server environment (ONECLAW_ENV_${v.name})` : 'manage_env_var',
              value: v.valueAvailable ? 'set (hidden)' : 'set on another server of this deployment, not available here',
              ...(v.overridesEnvironment ? { overrides: `ONECLAW_ENV_${v.name}` } : {}),
            })),
            note: list.length === 0 ? 'No variables are set.' : 'Values are never shown. Tools read them as _env.NAME.',
          });
        }
        const key = params.key?.trim();
        if (!key) return toolError('missing_parameter', `key is required to ${params.action} a variable: give its name.`);
        if (params.action === 'set') {
          if (params.value === undefined || params.value === '') return toolError('missing_parameter', 'value is required to set a variable: give the value to store.');
          const { overridesEnvironment } = await envVars.set(key, params.value, toolOrigin(context));
          return `Set ${key}; tools read it as _env.${key} from now on. The value is stored as a secret and will not be shown.${overridesEnvironment ? ` It takes precedence over ONECLAW_ENV_${key} of the server environment.` : ''}`;
        }
        const { environmentValueRemains } = await envVars.delete(key, toolOrigin(context));
        return `Deleted ${key}.${environmentValueRemains ? ` Tools now read the server environment's ONECLAW_ENV_${key} as _env.${key} again.` : ''}`;
      },
    ),
    builtinTool(
      {
        name: 'list_tool_states',
        description: 'Lists every tool group (ENABLED or DISABLED) with its tools, then the tools in no group, each ENABLED or DISABLED.',
        parameters: { type: 'object', properties: {} },
        timeoutMs: 10_000,
      },
      () => formatToolStates(registry),
    ),
    builtinTool<ToolEnabledParams>(
      {
        name: 'set_tool_enabled',
        description:
          'Enables or disables a tool, or a whole group with type "group". Disabled tools are not offered to the model. load_tool_group, set_tool_enabled and the config group cannot be disabled.',
        parameters: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 200, description: 'Tool or group name, as list_tool_states shows it.' },
            enabled: { type: 'boolean', description: 'true to enable, false to disable.' },
            type: { type: 'string', enum: ['tool', 'group'], default: 'tool', description: 'What name names (default tool).' },
          },
          required: ['name', 'enabled'],
        },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const target = params.type ?? 'tool';
        const { changed } = await enablement.set(params.name, params.enabled, target, toolOrigin(context));
        const state = params.enabled ? 'enabled' : 'disabled';
        const label = `${target === 'group' ? 'Group' : 'Tool'} '${params.name}'`;
        if (!changed) return `${label} already is ${state}.`;
        const groupOff = target === 'tool' && params.enabled && !registry.isToolEnabled(params.name);
        return `${label} is now ${state}; it ${params.enabled ? 'is offered again' : 'is no longer offered'} from the next model request.${groupOff ? ` Its group '${registry.groupOf(params.name)}' is still disabled, so it stays unavailable until the group is enabled.` : ''}`;
      },
    ),
  ];
}

/** Groups first (with their tools), then the tools in no group; a tool of a disabled group says so. */
export function formatToolStates(registry: ToolRegistry): string {
  const lines: string[] = ['Tool groups:'];
  for (const name of registry.groupNames()) {
    const groupOn = registry.isGroupEnabled(name);
    lines.push(`- ${name} (${registry.group(name)?.definition.displayName ?? name}): ${groupOn ? 'ENABLED' : 'DISABLED'}`);
    for (const tool of registry.groupToolNames(name)) lines.push(`    ${tool}: ${toolState(registry, tool, groupOn)}`);
  }
  lines.push('Ungrouped tools:');
  for (const tool of registry.coreToolNames()) lines.push(`    ${tool}: ${toolState(registry, tool, true)}`);
  return lines.join('\n');
}

function toolState(registry: ToolRegistry, tool: string, groupOn: boolean): string {
  if (!groupOn) return 'DISABLED (group disabled)';
  return registry.isToolEnabled(tool) ? 'ENABLED' : 'DISABLED';
}

import type { Tool, ToolRegistry } from '@oneclaw/tool-registry';
import type { ConfigServices } from '../../../config/config-services';
import { createAgentTools } from './agent-tools';
import { createModelTools } from './model-tools';
import { createProviderTools } from './provider-tools';
import { createSettingsTools } from './settings-tools';

/**
 * The 17 tools of the config group, in the seed's order: providers (4), models (5), agents (3),
 * settings (5). Every change they make is an event of the `config` stream (docs/configuration.md).
 */
export function createConfigTools(config: ConfigServices, registry: ToolRegistry): Tool[] {
  return [
    ...createProviderTools(config.providers),
    ...createModelTools(config.providers),
    ...createAgentTools(config.agentService),
    ...createSettingsTools({ settings: config.settings, envVars: config.envVars, registry, enablement: config.toolEnablement(registry) }),
  ];
}

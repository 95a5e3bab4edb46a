import { OneClawError } from '../oneclaw-error';

/** A configuration command its rules refuse. Nothing is recorded. */
export class ConfigRuleError extends OneClawError {}

export const configErrors = {
  invalid: (problem: string, details: Readonly<Record<string, unknown>> = {}) => new ConfigRuleError('validation_error', problem, details),
  providerNotFound: (providerId: string) => new ConfigRuleError('provider_not_found', `No provider '${providerId}'. Call list_providers to see the provider ids.`, { providerId }),
  providerInactive: (providerId: string) =>
    new ConfigRuleError('provider_inactive', `Provider '${providerId}' is inactive. Activate it first with update_provider(is_active: true).`, { providerId }),
  modelNotFound: (providerId: string, modelId: string) =>
    new ConfigRuleError('model_not_found', `Provider '${providerId}' has no model '${modelId}'. Call list_models to see its models, or fetch_models / add_model to add it.`, {
      providerId,
      modelId,
    }),
  agentNotFound: (agentId: string) => new ConfigRuleError('agent_not_found', `No agent '${agentId}'. Call list_agents to see the agent ids.`, { agentId }),
  readOnly: (what: string, fix: string, details: Readonly<Record<string, unknown>> = {}) => new ConfigRuleError('read_only', `${what} ${fix}`, details),
  unknownKey: (key: string, known: readonly string[]) =>
    new ConfigRuleError('unknown_key', `'${key}' is not a configuration key. Known keys: ${known.join(', ')}.`, { key, known }),
  cannotDisable: (name: string, target: string) =>
    new ConfigRuleError('cannot_disable', `The ${target} '${name}' cannot be disabled: without it the configuration could no longer be changed from the chat.`, { name, target }),
  keyBoundToUrl: (providerId: string) =>
    new ConfigRuleError(
      'key_bound_to_url',
      `Provider '${providerId}' has an API key, and the key is only sent to the address it was given for, so its base URL cannot be changed from the chat. The user can change the address in Settings (the provider's "Edit name, URL or activity"), where they keep or replace the key.`,
      { providerId },
    ),
  envVarNotFound: (name: string) => new ConfigRuleError('not_found', `No environment variable '${name}' is set. Call manage_env_var(action: "list") to see them.`, { name }),
};

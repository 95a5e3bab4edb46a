/**
 * What the booted server's catalogue holds, for tests that check what a model request carries.
 * One list, so a change to the core tools is made (and reviewed) in one place.
 */

/** The seed's 13 core tools (RFC-040 as first implemented), in the order every request sends them. */
export const CORE_TOOL_NAMES: readonly string[] = [
  'load_skill',
  'load_tool_group',
  'save_memory',
  'search_history',
  'exec',
  'js_eval',
  'webfetch',
  'browser',
  'create_agent',
  // The shipped JS core tools follow the TypeScript ones: the JS catalogue loads after them.
  'get_current_time',
  'http_request',
  'read_file',
  'write_file',
];

/** The `config` group (17 tools), in registration order. */
export const CONFIG_TOOL_NAMES: readonly string[] = [
  'list_providers',
  'create_provider',
  'update_provider',
  'delete_provider',
  'list_models',
  'fetch_models',
  'set_default_model',
  'add_model',
  'delete_model',
  'list_agents',
  'update_agent',
  'delete_agent',
  'get_config',
  'set_config',
  'manage_env_var',
  'list_tool_states',
  'set_tool_enabled',
];

/** Injection tokens for ports whose adapters are chosen at start-up. */
export const EVENT_STORE = Symbol('EventStore');
export const TOOL_CATALOGUE = Symbol('ToolCatalogue');

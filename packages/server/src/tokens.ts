/** Injection tokens for values and ports whose adapters are chosen at start-up. */
export const EVENT_STORE = Symbol('EventStore');
export const SERVER_CONFIG = Symbol('ServerConfig');
export const LOGGER = Symbol('Logger');
/** The objects composeRuntime built (composition.ts); app.module serves each under its class. */
export const RUNTIME = Symbol('Runtime');

import type { Aggregate } from '../aggregate/aggregate';
import type { ConfigCommand } from './config-commands';
import { CONFIG_EVENT_SCHEMA_VERSION, CONFIG_STREAM_ID, type ConfigEvent } from './config-events';
import { initialConfigState, type ConfigState } from './config-state';
import { decideConfig } from './decide';
import { evolveConfig } from './evolve';

/** The configuration: one stream (`config`), decided and folded purely; see docs/configuration.md. */
export const configAggregate: Aggregate<ConfigState, ConfigCommand, ConfigEvent> = {
  streamId: CONFIG_STREAM_ID,
  initialState: initialConfigState,
  schemaVersion: CONFIG_EVENT_SCHEMA_VERSION,
  decide: (command, state) => decideConfig(command, state),
  evolve: evolveConfig,
};

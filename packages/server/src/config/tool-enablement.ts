import { OneClawError, type ConfigState, type EventEnvelope, type ToolTargetKind } from '@oneclaw/core';
import type { ToolRegistry } from '@oneclaw/tool-registry';
import type { ChangeOrigin, ConfigRepository } from './config-repository';

/**
 * Which tools and groups are enabled, kept in the configuration stream and mirrored into the tool
 * registry: at start (after the JS catalogue has loaded), whenever an event is folded in (this
 * server's or, on catch-up, another replica's), and when a tool or group is registered again (a
 * JS file reloaded keeps its disabled state).
 */
export class ToolEnablement {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly repository: ConfigRepository,
  ) {}

  /** Records the change and applies it at once. Unknown names are `not_found`. */
  async set(name: string, enabled: boolean, target: ToolTargetKind, origin?: ChangeOrigin): Promise<{ readonly changed: boolean }> {
    const known = target === 'group' ? this.registry.hasGroup(name) : this.registry.has(name);
    if (!known) {
      throw new OneClawError(
        'not_found',
        target === 'group'
          ? `No tool group '${name}'. Groups: ${this.registry.groupNames().join(', ')}.`
          : `No tool '${name}'. Call list_tool_states to see every tool${this.registry.hasGroup(name) ? `; '${name}' is a group, so pass type: "group"` : ''}.`,
        { name, type: target },
      );
    }
    const recorded = await this.repository.record({ type: 'SetToolEnabled', name, target, enabled }, origin);
    this.apply(recorded.state);
    return { changed: recorded.events.length > 0 };
  }

  /**
   * Keeps the registry in line with the configuration from now on: it applies what is cached now,
   * then every read or write that folds an enablement event in (the first read of the stream
   * included). Returns the unsubscribe function.
   */
  attach(): () => void {
    this.apply(this.repository.cached);
    const stopEvents = this.repository.onEvents((events) => {
      if (events.some(isEnablementEvent)) this.apply(this.repository.cached);
    });
    const stopRegistry = this.registry.onChange((change) => {
      if (change.type === 'tool_registered' || change.type === 'group_registered') this.apply(this.repository.cached);
    });
    return () => {
      stopEvents();
      stopRegistry();
    };
  }

  /** The registry's enabled flags as the state says; names the registry does not have (yet) are skipped. */
  private apply(state: ConfigState): void {
    // The registry ignores a set to the state a name is already in, so this only announces real changes.
    for (const name of this.registry.toolNames()) this.registry.setToolEnabled(name, !state.disabledTools.has(name));
    for (const name of this.registry.groupNames()) this.registry.setGroupEnabled(name, !state.disabledGroups.has(name));
  }
}

function isEnablementEvent(event: EventEnvelope): boolean {
  return event.type === 'ToolEnablementChanged';
}

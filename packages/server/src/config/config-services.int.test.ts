import { afterEach, describe, expect, it } from '@jest/globals';
import { InMemoryEventStore, OneClawError, type ReadStreamOptions, type RecordedEvent } from '@oneclaw/core';
import { toolSuccess, ToolRegistry } from '@oneclaw/tool-registry';
import { ConfigRepository } from './config-repository';
import { configFixture, type ConfigFixture } from './config.fixture';

/** A store whose reads fail until `up` is set (a KurrentDB cluster that is down at start). */
class FlakyStore extends InMemoryEventStore {
  up = false;
  override readStream(streamId: string, options?: ReadStreamOptions): Promise<readonly RecordedEvent[]> {
    return this.up ? super.readStream(streamId, options) : Promise.reject(new OneClawError('storage_unavailable', 'The cluster is down.'));
  }
}

let fixture: ConfigFixture;
afterEach(() => fixture.cleanup());

describe('ConfigServices.start', () => {
  it('a store that cannot be read at start does not stop the server: a warning, then the first read that works applies the recorded tool states', async () => {
    const store = new FlakyStore();
    store.up = true;
    await new ConfigRepository(store).record({ type: 'SetToolEnabled', name: 'webfetch', target: 'tool', enabled: false });
    store.up = false;
    const logs: string[] = [];
    fixture = configFixture({ store, onLog: (level, message) => logs.push(`${level}: ${message}`) });
    const registry = new ToolRegistry();
    registry.register(
      { definition: { name: 'webfetch', description: 'Fetches.', parameters: { type: 'object', properties: {} } }, execute: async () => toolSuccess('') },
      { kind: 'built-in', fileName: 'web.ts' },
    );

    await expect(fixture.services.start(registry)).resolves.toBeUndefined();
    expect(logs).toEqual([expect.stringMatching(/^warn: the configuration stream cannot be read yet \(The cluster is down\.\)/)]);
    expect(registry.isToolEnabled('webfetch')).toBe(true);

    store.up = true;
    await fixture.services.repository.load();
    expect(registry.isToolEnabled('webfetch')).toBe(false);
  });
});

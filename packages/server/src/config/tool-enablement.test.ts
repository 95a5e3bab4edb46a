import { describe, expect, it } from '@jest/globals';
import { InMemoryEventStore } from '@oneclaw/core';
import { toolSuccess, ToolRegistry, type Tool } from '@oneclaw/tool-registry';
import { ConfigRepository } from './config-repository';
import { ToolEnablement } from './tool-enablement';

const tool = (name: string): Tool => ({
  definition: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: {} } },
  execute: async () => toolSuccess('ok'),
});

function registryWith(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(tool('load_tool_group'), { kind: 'built-in', fileName: 'core.ts' });
  registry.register(tool('webfetch'), { kind: 'built-in', fileName: 'core.ts' });
  registry.registerGroup({ name: 'config', displayName: 'Configuration', description: 'Config.' }, { kind: 'built-in', fileName: 'config.ts' });
  registry.register(tool('set_tool_enabled'), { kind: 'built-in', fileName: 'config.ts', group: 'config' });
  registry.registerGroup({ name: 'pdf', displayName: 'PDF', description: 'PDF.' }, { kind: 'built-in', fileName: 'pdf.ts' });
  registry.register(tool('pdf_info'), { kind: 'built-in', fileName: 'pdf.ts', group: 'pdf' });
  return registry;
}

describe('ToolEnablement: set_tool_enabled recorded in the config stream and mirrored into the registry', () => {
  it('disables and enables tools and groups at once; a repeat records nothing', async () => {
    const store = new InMemoryEventStore();
    const registry = registryWith();
    const enablement = new ToolEnablement(registry, new ConfigRepository(store));
    expect(await enablement.set('webfetch', false, 'tool')).toEqual({ changed: true });
    expect(registry.isToolEnabled('webfetch')).toBe(false);
    expect(await enablement.set('webfetch', false, 'tool')).toEqual({ changed: false });
    await enablement.set('pdf', false, 'group');
    expect(registry.isGroupEnabled('pdf')).toBe(false);
    expect(registry.isToolEnabled('pdf_info')).toBe(false);
    await enablement.set('webfetch', true, 'tool');
    expect(registry.isToolEnabled('webfetch')).toBe(true);
    expect((await store.readStream('config')).map((e) => e.data)).toEqual([
      { name: 'webfetch', target: 'tool', enabled: false },
      { name: 'pdf', target: 'group', enabled: false },
      { name: 'webfetch', target: 'tool', enabled: true },
    ]);
  });

  it('an unknown tool or group is not_found (a group name given as a tool says to pass type group)', async () => {
    const enablement = new ToolEnablement(registryWith(), new ConfigRepository(new InMemoryEventStore()));
    await expect(enablement.set('nope', false, 'tool')).rejects.toMatchObject({ code: 'not_found' });
    await expect(enablement.set('pdf', false, 'tool')).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('type: "group"') });
    await expect(enablement.set('webfetch', false, 'group')).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('config, pdf') });
  });

  it('refuses to disable load_tool_group, set_tool_enabled and the config group (no lock-out)', async () => {
    const registry = registryWith();
    const enablement = new ToolEnablement(registry, new ConfigRepository(new InMemoryEventStore()));
    await expect(enablement.set('load_tool_group', false, 'tool')).rejects.toMatchObject({ code: 'cannot_disable' });
    await expect(enablement.set('set_tool_enabled', false, 'tool')).rejects.toMatchObject({ code: 'cannot_disable' });
    await expect(enablement.set('config', false, 'group')).rejects.toMatchObject({ code: 'cannot_disable' });
    expect(registry.isToolEnabled('set_tool_enabled')).toBe(true);
  });

  it('a restart applies the recorded state to the new registry; a tool registered later (a JS file added back) gets it too', async () => {
    const store = new InMemoryEventStore();
    const before = registryWith();
    before.register(tool('my_js_tool'), { kind: 'js-user', fileName: 'my_js_tool.json' });
    await new ToolEnablement(before, new ConfigRepository(store)).set('webfetch', false, 'tool');
    await new ToolEnablement(before, new ConfigRepository(store)).set('my_js_tool', false, 'tool');
    await new ToolEnablement(before, new ConfigRepository(store)).set('pdf', false, 'group');
    // After the restart the user's JS file is not there yet: its recorded state is skipped, not an error.
    const restarted = registryWith();
    expect(restarted.isToolEnabled('webfetch')).toBe(true);
    const restartedRepository = new ConfigRepository(store);
    const stop = new ToolEnablement(restarted, restartedRepository).attach();
    await restartedRepository.load();
    expect(restarted.isToolEnabled('webfetch')).toBe(false);
    expect(restarted.isGroupEnabled('pdf')).toBe(false);
    restarted.register(tool('my_js_tool'), { kind: 'js-user', fileName: 'my_js_tool.json' });
    expect(restarted.isToolEnabled('my_js_tool')).toBe(false);
    stop();
  });

  it('a change made on another replica reaches this registry when the configuration catches up', async () => {
    const store = new InMemoryEventStore();
    const here = registryWith();
    const hereRepository = new ConfigRepository(store);
    const stop = new ToolEnablement(here, hereRepository).attach();
    await hereRepository.load();
    await new ToolEnablement(registryWith(), new ConfigRepository(store)).set('webfetch', false, 'tool');
    expect(here.isToolEnabled('webfetch')).toBe(true);
    await hereRepository.load();
    expect(here.isToolEnabled('webfetch')).toBe(false);
    stop();
  });
});

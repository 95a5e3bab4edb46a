import { describe, expect, it } from '@jest/globals';
import { InMemoryEventStore } from '@oneclaw/core';
import { ConfigRepository } from '../config/config-repository';
import { AgentDirectory, DEFAULT_SYSTEM_PROMPT, type Agent } from './agent-directory';

const base: Agent[] = [
  { id: 'default', name: 'OneClaw', systemPrompt: DEFAULT_SYSTEM_PROMPT, maxRounds: 20, source: 'default' },
  { id: 'mailer', name: 'Mail helper', systemPrompt: 'You read mail only.', allowedTools: new Set(['load_tool_group']), model: 'm-file', maxRounds: 8, source: 'file' },
];

describe('AgentDirectory: the default agent, agents.json and the agents of the config stream', () => {
  it('without configuration events it is the default and file agents, as before', () => {
    const directory = new AgentDirectory(base, new ConfigRepository(new InMemoryEventStore()), 20);
    expect(directory.list().map((a) => a.id)).toEqual(['default', 'mailer']);
    expect(directory.get('mailer')).toBe(base[1]);
    expect(() => directory.get('ghost')).toThrow(expect.objectContaining({ code: 'agent_not_found', message: expect.stringContaining('default, mailer') }));
  });

  it('adds created agents (all tools, the server round cap), applies overlays to outside agents, drops deleted ones', async () => {
    const config = new ConfigRepository(new InMemoryEventStore());
    const directory = new AgentDirectory(base, config, 20);
    await config.record({ type: 'CreateAgent', agentId: 'a1', name: 'Researcher', description: 'Finds things', systemPrompt: 'You research.' });
    await config.record({ type: 'UpdateAgent', agentId: 'a1', changes: { preferredProviderId: 'p1', preferredModelId: 'm1' } });
    await config.record({ type: 'UpdateAgent', agentId: 'mailer', changes: { systemPrompt: 'You read and sort mail.', description: 'Mail' }, outsideStream: true });
    expect(directory.get('a1')).toEqual({
      id: 'a1',
      name: 'Researcher',
      description: 'Finds things',
      systemPrompt: 'You research.',
      preferredProviderId: 'p1',
      preferredModelId: 'm1',
      maxRounds: 20,
      source: 'config',
    });
    // The overlay changes what it names and keeps the rest of the file's definition.
    expect(directory.get('mailer')).toMatchObject({
      name: 'Mail helper',
      systemPrompt: 'You read and sort mail.',
      description: 'Mail',
      model: 'm-file',
      maxRounds: 8,
      source: 'file',
    });
    expect(directory.get('mailer').allowedTools).toEqual(new Set(['load_tool_group']));
    expect(directory.isDefinedOutside('mailer')).toBe(true);
    expect(directory.isDefinedOutside('a1')).toBe(false);
    await config.record({ type: 'UpdateAgent', agentId: 'mailer', changes: { description: null }, outsideStream: true });
    expect(directory.get('mailer')).not.toHaveProperty('description');
    await config.record({ type: 'DeleteAgent', agentId: 'a1' });
    expect(directory.has('a1')).toBe(false);
  });

  it('find catches up with agents created on another replica; get alone answers from the cache', async () => {
    const store = new InMemoryEventStore();
    const here = new AgentDirectory(base, new ConfigRepository(store), 20);
    await new ConfigRepository(store).record({ type: 'CreateAgent', agentId: 'remote', name: 'Remote', systemPrompt: 'Hi.' });
    expect(here.has('remote')).toBe(false);
    await expect(here.find('remote')).resolves.toMatchObject({ id: 'remote', source: 'config' });
  });
});

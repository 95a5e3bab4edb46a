import { describe, expect, it } from '@jest/globals';
import { agentChanges, agentFormErrors, formOf, isDeletable, sourceLabel, toggleTool } from './agent-form';
import { choiceValue } from './provider-model';
import type { AgentView } from '@oneclaw/api-contract';

const agent: AgentView = { id: 'default', name: 'OneClaw', source: 'default', deletable: false, systemPrompt: 'You are OneClaw.', maxRounds: 20 };

describe('agentChanges', () => {
  it('is empty when nothing changed, whitespace around the name included', () => {
    expect(agentChanges(agent, { ...formOf(agent), name: ' OneClaw ' })).toEqual({});
  });

  it('sends only the fields that changed', () => {
    expect(agentChanges(agent, { ...formOf(agent), systemPrompt: 'You are terse.' })).toEqual({ systemPrompt: 'You are terse.' });
    expect(agentChanges(agent, { ...formOf(agent), name: 'Helper', description: ' Helps ' })).toEqual({ name: 'Helper', description: 'Helps' });
  });

  it('clears a description with null', () => {
    const described = { ...agent, description: 'Old' };
    expect(agentChanges(described, { ...formOf(described), description: '  ' })).toEqual({ description: null });
  });

  it('sends an allow-list when tools are restricted, null when back to all tools, nothing when the set is the same', () => {
    expect(agentChanges(agent, { ...formOf(agent), allTools: false, allowedTools: ['read_file', 'load_tool_group', 'read_file'] })).toEqual({
      allowedTools: ['load_tool_group', 'read_file'],
    });
    const restricted = { ...agent, allowedTools: ['b', 'a'] };
    expect(agentChanges(restricted, { ...formOf(restricted), allTools: true })).toEqual({ allowedTools: null });
    expect(agentChanges(restricted, { ...formOf(restricted), allowedTools: ['a', 'b'] })).toEqual({});
  });

  it('sets, changes and clears the preferred model as a provider and model pair', () => {
    const chosen = choiceValue({ providerId: 'p1', modelId: 'llama3' });
    expect(agentChanges(agent, { ...formOf(agent), preferredModel: chosen })).toEqual({ preferredProviderId: 'p1', preferredModelId: 'llama3' });
    const preferring = { ...agent, preferredProviderId: 'p1', preferredModelId: 'llama3' };
    expect(formOf(preferring).preferredModel).toBe(chosen);
    expect(agentChanges(preferring, formOf(preferring))).toEqual({});
    expect(agentChanges(preferring, { ...formOf(preferring), preferredModel: '' })).toEqual({ preferredProviderId: null, preferredModelId: null });
    expect(agentChanges(preferring, { ...formOf(preferring), preferredModel: choiceValue({ providerId: 'p1', modelId: 'qwen' }) })).toEqual({
      preferredProviderId: 'p1',
      preferredModelId: 'qwen',
    });
  });
});

describe('formOf', () => {
  it('reads "all tools" from a missing allow-list', () => {
    expect(formOf(agent)).toEqual({ name: 'OneClaw', description: '', systemPrompt: 'You are OneClaw.', allTools: true, allowedTools: [], preferredModel: '' });
    expect(formOf({ ...agent, allowedTools: ['x'] })).toMatchObject({ allTools: false, allowedTools: ['x'] });
  });
});

describe('checks and labels', () => {
  it('needs a name and a system prompt', () => {
    expect(agentFormErrors({ name: 'a', systemPrompt: 'b' })).toEqual({});
    expect(Object.keys(agentFormErrors({ name: ' ', systemPrompt: '\n' })).sort()).toEqual(['name', 'systemPrompt']);
  });

  it('follows the server on deletability, and falls back to the source', () => {
    expect(isDeletable({ source: 'config' })).toBe(true);
    expect(isDeletable({ source: 'default' })).toBe(false);
    expect(isDeletable({ source: 'file', deletable: false })).toBe(false);
    expect(isDeletable({ source: 'config', deletable: false })).toBe(false);
  });

  it('labels where an agent comes from', () => {
    expect(sourceLabel('default')).toBe('Built-in default');
    expect(sourceLabel('file')).toBe('From agents.json');
    expect(sourceLabel('config')).toBe('Created here');
    expect(sourceLabel('other')).toBe('other');
  });

  it('toggles a tool without duplicates', () => {
    expect(toggleTool(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggleTool(['a', 'b'], 'a', true)).toEqual(['b', 'a']);
    expect(toggleTool(['a', 'b'], 'a', false)).toEqual(['b']);
  });
});

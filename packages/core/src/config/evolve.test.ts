import { describe, expect, it } from '@jest/globals';
import { foldAggregate } from '../aggregate/aggregate';
import type { EventEnvelope } from '../events/event-envelope';
import { configAggregate } from './config-aggregate';
import { initialConfigState } from './config-state';
import { evolveConfig } from './evolve';

const meta = (n: number, schemaVersion = 1) => ({
  eventId: `e${n}`,
  occurredAt: `2026-03-0${n}T00:00:00.000Z`,
  correlationId: `e${n}`,
  causationId: `e${n}`,
  schemaVersion,
});
const event = (n: number, type: string, data: unknown, schemaVersion = 1): EventEnvelope => ({ type, data, metadata: meta(n, schemaVersion) });

describe('configuration evolve', () => {
  it('folds a history into the state, leaving the given state untouched', () => {
    const history = [
      event(1, 'ProviderCreated', { providerId: 'p1', name: 'OpenRouter', kind: 'openai', apiBaseUrl: 'https://openrouter.ai/api/v1' }),
      event(2, 'ProviderApiKeySet', { providerId: 'p1' }),
      event(3, 'ModelAdded', { providerId: 'p1', modelId: 'x/y' }),
      event(4, 'DefaultModelSet', { providerId: 'p1', modelId: 'x/y' }),
      event(5, 'AgentCreated', { agentId: 'a1', name: 'A', systemPrompt: 'P' }),
    ];
    const state = foldAggregate(configAggregate, history, initialConfigState);
    expect(state.providers.get('p1')).toMatchObject({ apiKeySet: true, isActive: true, createdAt: '2026-03-01T00:00:00.000Z' });
    expect(state.defaultModel).toEqual({ providerId: 'p1', modelId: 'x/y' });
    expect(state.agents.get('a1')?.createdAt).toBe('2026-03-05T00:00:00.000Z');
    expect(state.eventCount).toBe(5);
    expect(initialConfigState.providers.size).toBe(0);
    expect(initialConfigState.eventCount).toBe(0);
  });

  it('skips (and counts) unknown types, malformed data and newer schema versions instead of failing (EST-17)', () => {
    let state = initialConfigState;
    state = evolveConfig(state, event(1, 'SomethingNew', { x: 1 }));
    state = evolveConfig(state, event(2, 'ProviderCreated', { providerId: 'p1', name: 'n', kind: 'mistral', apiBaseUrl: 'https://x' }));
    state = evolveConfig(state, event(3, 'SettingSet', null));
    state = evolveConfig(state, event(4, 'EnvVarSet', { name: 'A' }, 2));
    state = evolveConfig(state, event(5, 'EnvVarSet', { name: 'B' }));
    state = evolveConfig(state, event(6, 'AgentUpdated', { agentId: 'default', changes: { allowedTools: 'gmail_search' }, definedOutside: true }));
    expect(state.skippedEvents).toBe(5);
    expect(state.eventCount).toBe(6);
    expect(state.agentOverlays.size).toBe(0);
    expect(state.providers.size).toBe(0);
    expect([...state.envVars]).toEqual([['B', 'e5']]);
  });

  it('fetched models keep the context window their list stated; older lists without one replay as before; a malformed one is skipped', () => {
    const history = [
      event(1, 'ProviderCreated', { providerId: 'p1', name: 'OpenRouter', kind: 'openai', apiBaseUrl: 'https://openrouter.ai/api/v1' }),
      event(2, 'ModelsFetched', { providerId: 'p1', models: [{ modelId: 'old' }] }),
      event(3, 'ModelsFetched', { providerId: 'p1', models: [{ modelId: 'a', contextWindowTokens: 131_072 }, { modelId: 'b' }] }),
      event(4, 'ModelsFetched', { providerId: 'p1', models: [{ modelId: 'c', contextWindowTokens: 'big' }] }),
    ];
    const state = foldAggregate(configAggregate, history.slice(0, 2), initialConfigState);
    expect(state.models.get('p1')).toEqual([{ modelId: 'old', source: 'fetched' }]);
    const later = foldAggregate(configAggregate, history, initialConfigState);
    expect(later.models.get('p1')).toEqual([
      { modelId: 'a', contextWindowTokens: 131_072, source: 'fetched' },
      { modelId: 'b', source: 'fetched' },
    ]);
    expect(later.skippedEvents).toBe(1);
  });

  it('a reasoning event with an unknown effort is skipped; a known one replays', () => {
    let state = initialConfigState;
    state = evolveConfig(state, event(1, 'ModelReasoningSet', { providerId: 'p1', modelId: 'm', effort: 'extreme' }));
    state = evolveConfig(state, event(2, 'ModelReasoningSet', { providerId: 'p1', modelId: 'm' }));
    state = evolveConfig(state, event(3, 'ModelReasoningSet', { providerId: 'p1', modelId: 'm', effort: 'low' }));
    expect(state.skippedEvents).toBe(2);
    expect(state.modelReasoning.get('p1')?.get('m')).toBe('low');
  });

  it('events about things that are gone change nothing', () => {
    let state = initialConfigState;
    state = evolveConfig(state, event(1, 'ProviderUpdated', { providerId: 'ghost', name: 'x' }));
    state = evolveConfig(state, event(2, 'ProviderApiKeySet', { providerId: 'ghost' }));
    state = evolveConfig(state, event(3, 'AgentUpdated', { agentId: 'ghost', changes: { name: 'x' }, definedOutside: false }));
    expect(state.providers.size).toBe(0);
    expect(state.agents.size).toBe(0);
    expect(state.agentOverlays.size).toBe(0);
    expect(state.skippedEvents).toBe(0);
  });
});

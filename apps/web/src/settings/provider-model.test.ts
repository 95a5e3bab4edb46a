import { describe, expect, it } from '@jest/globals';
import {
  choiceValue,
  defaultModelLabel,
  isReadOnly,
  keyStatus,
  kindLabel,
  modelChoices,
  newProviderBody,
  newProviderErrors,
  parseChoice,
  REASONING_OPTIONS,
  reasoningBody,
  reasoningSuccess,
  reasoningValue,
  type NewProviderForm,
} from './provider-model';
import type { ProviderView } from '@oneclaw/api-contract';

const provider = (over: Partial<ProviderView>): ProviderView => ({
  providerId: 'p1',
  name: 'Local',
  kind: 'openai',
  apiBaseUrl: 'http://127.0.0.1:11434/v1',
  isActive: true,
  definedBy: 'configuration',
  apiKey: 'not_set',
  hasApiKey: false,
  models: [],
  ...over,
});

describe('keyStatus', () => {
  it('says whether a key is stored, never what it is', () => {
    expect(keyStatus({ apiKey: 'set' })).toEqual({ label: 'Key stored', ok: true });
    expect(keyStatus({ apiKey: 'not_set' })).toEqual({ label: 'No key', ok: false });
    expect(keyStatus({ apiKey: 'from_environment', keyVariable: 'OPENAI_API_KEY' })).toEqual({ label: 'Key from OPENAI_API_KEY', ok: true });
    expect(keyStatus({ apiKey: 'from_environment' }).label).toBe('Key from the environment');
    expect(keyStatus({ apiKey: 'set_elsewhere' })).toMatchObject({ ok: false, label: expect.stringContaining('another server') });
  });
});

describe('labels and read-only', () => {
  it('names kinds for people and keeps unknown ones', () => {
    expect(kindLabel('openai')).toBe('OpenAI-compatible');
    expect(kindLabel('gemini')).toBe('Gemini');
    expect(kindLabel('mistral')).toBe('mistral');
  });

  it('treats only the environment provider as read-only', () => {
    expect(isReadOnly({ definedBy: 'environment' })).toBe(true);
    expect(isReadOnly({ definedBy: 'configuration' })).toBe(false);
  });
});

describe('default model choices', () => {
  const answer = {
    providers: [
      provider({ providerId: 'env', name: 'Environment', definedBy: 'environment', models: [{ modelId: 'gpt-4o-mini', source: 'environment', isDefault: false }] }),
      provider({
        providerId: 'p1',
        name: 'Local',
        models: [
          { modelId: 'llama3', displayName: 'Llama 3', source: 'added', isDefault: true },
          { modelId: 'qwen', displayName: 'qwen', source: 'fetched', isDefault: false },
        ],
      }),
      provider({ providerId: 'off', isActive: false, models: [{ modelId: 'x', source: 'added', isDefault: false }] }),
      provider({ providerId: 'empty' }),
    ],
    defaultModel: { providerId: 'p1', modelId: 'llama3' },
  };

  it('lists every model of each active provider that has models, with display names', () => {
    const groups = modelChoices(answer);
    expect(groups.map((g) => g.provider.providerId)).toEqual(['env', 'p1']);
    expect(groups[1]!.choices.map((c) => c.label)).toEqual(['Llama 3 (llama3)', 'qwen']);
    expect(groups[1]!.choices[0]).toMatchObject({ providerId: 'p1', modelId: 'llama3' });
  });

  it('round-trips a choice through the select value, model ids with slashes and colons included', () => {
    const ref = { providerId: 'p1', modelId: 'meta/llama3.1:8b' };
    expect(parseChoice(choiceValue(ref))).toEqual(ref);
    expect(parseChoice('')).toBeUndefined();
    expect(parseChoice('no-separator')).toBeUndefined();
  });

  it('labels the default with its provider name, or says there is none', () => {
    expect(defaultModelLabel(answer)).toBe('Local / llama3');
    expect(defaultModelLabel({ ...answer, defaultModel: { providerId: 'gone', modelId: 'm' } })).toBe('gone / m');
    expect(defaultModelLabel({ ...answer, defaultModel: null })).toContain('No default model');
  });
});

describe('the add-provider form', () => {
  const form: NewProviderForm = { name: ' Fake ', kind: 'openai', apiBaseUrl: ' http://127.0.0.1:9/v1 ', apiKey: '' };

  it('accepts a complete form and trims what it sends, without an empty key', () => {
    expect(newProviderErrors(form)).toEqual({});
    expect(newProviderBody(form)).toEqual({ name: 'Fake', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:9/v1' });
    expect(newProviderBody({ ...form, apiKey: ' sk-1 ' })).toEqual({ name: 'Fake', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-1' });
  });

  it('names each field that is wrong', () => {
    expect(newProviderErrors({ ...form, name: ' ', apiBaseUrl: '' })).toEqual({ name: expect.any(String), apiBaseUrl: expect.any(String) });
    expect(newProviderErrors({ ...form, apiBaseUrl: 'localhost:11434' }).apiBaseUrl).toContain('http://');
    expect(newProviderErrors({ ...form, apiBaseUrl: 'https://user:sk@host/v1' }).apiBaseUrl).toContain('key field');
    expect(newProviderErrors({ ...form, apiKey: 'sk one' }).apiKey).toBeDefined();
  });
});

describe('the Reasoning select', () => {
  it('offers Default first, then low, medium and high', () => {
    expect(REASONING_OPTIONS.map((o) => [o.value, o.label])).toEqual([
      ['', 'Provider default'],
      ['low', 'Low'],
      ['medium', 'Medium'],
      ['high', 'High'],
    ]);
  });

  it("shows a model's reasoning, or Default when it has none", () => {
    expect(reasoningValue({ reasoning: 'high' })).toBe('high');
    expect(reasoningValue({})).toBe('');
  });

  it('sends the effort, and null (the provider default) for Default or anything unknown', () => {
    expect(reasoningBody('low')).toEqual({ reasoning: 'low' });
    expect(reasoningBody('medium')).toEqual({ reasoning: 'medium' });
    expect(reasoningBody('high')).toEqual({ reasoning: 'high' });
    expect(reasoningBody('')).toEqual({ reasoning: null });
    expect(reasoningBody('extreme')).toEqual({ reasoning: null });
  });

  it('says what was set, naming the model', () => {
    expect(reasoningSuccess('gpt-4o', 'high')).toBe('Reasoning for gpt-4o: High.');
    expect(reasoningSuccess('gpt-4o', '')).toBe('Reasoning for gpt-4o: Provider default (nothing asked).');
  });
});

/** Pure helpers of the Providers screen: labels, the default-model choices, the add form's checks. */
import type { ModelRef, ModelView, ProviderKind, ProvidersAnswer, ProviderView } from '@oneclaw/api-contract';

export const KIND_LABELS: Readonly<Record<ProviderKind, string>> = {
  openai: 'OpenAI-compatible',
  anthropic: 'Anthropic',
  gemini: 'Gemini',
};

/** What the add form proposes for each kind; the user can point it anywhere (Ollama, a proxy...). */
export const DEFAULT_BASE_URLS: Readonly<Record<ProviderKind, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
};

export function kindLabel(kind: string): string {
  return (KIND_LABELS as Record<string, string>)[kind] ?? kind;
}

/** The environment provider is configured by the server's variables and cannot be changed here. */
export function isReadOnly(provider: Pick<ProviderView, 'definedBy'>): boolean {
  return provider.definedBy === 'environment';
}

/**
 * Whether a key is stored, in words, and whether the provider can be called with it. Never the
 * key: the API does not return it and the UI never shows one.
 */
export function keyStatus(provider: Pick<ProviderView, 'apiKey' | 'keyVariable'>): { readonly label: string; readonly ok: boolean } {
  switch (provider.apiKey) {
    case 'set':
      return { label: 'Key stored', ok: true };
    case 'from_environment':
      return { label: provider.keyVariable ? `Key from ${provider.keyVariable}` : 'Key from the environment', ok: true };
    case 'set_elsewhere':
      return { label: 'Key stored on another server (set it again here)', ok: false };
    case 'not_set':
    default:
      return { label: 'No key', ok: false };
  }
}

export interface ModelChoice {
  /** The select's value: provider and model joined by a character neither can contain. */
  readonly value: string;
  readonly label: string;
  readonly providerId: string;
  readonly modelId: string;
}

const SEPARATOR = '\u001f';

export function choiceValue(ref: ModelRef): string {
  return `${ref.providerId}${SEPARATOR}${ref.modelId}`;
}

export function parseChoice(value: string): ModelRef | undefined {
  const at = value.indexOf(SEPARATOR);
  if (at <= 0 || at === value.length - 1) return undefined;
  return { providerId: value.slice(0, at), modelId: value.slice(at + 1) };
}

/**
 * Every model of every active provider, grouped under its provider's name, as the default-model
 * select offers them. An inactive provider's models are left out: the server would not use them.
 */
export function modelChoices(answer: Pick<ProvidersAnswer, 'providers'>): { readonly provider: ProviderView; readonly choices: readonly ModelChoice[] }[] {
  return answer.providers
    .filter((p) => p.isActive && p.models.length > 0)
    .map((provider) => ({
      provider,
      choices: provider.models.map((m) => ({
        value: choiceValue({ providerId: provider.providerId, modelId: m.modelId }),
        label: m.displayName && m.displayName !== m.modelId ? `${m.displayName} (${m.modelId})` : m.modelId,
        providerId: provider.providerId,
        modelId: m.modelId,
      })),
    }));
}

/** "Provider name / model" for the current default, or a sentence saying there is none. */
export function defaultModelLabel(answer: ProvidersAnswer): string {
  const ref = answer.defaultModel;
  if (!ref) return 'No default model set: the server uses the environment provider\u2019s model.';
  const provider = answer.providers.find((p) => p.providerId === ref.providerId);
  return `${provider?.name ?? ref.providerId} / ${ref.modelId}`;
}

export interface NewProviderForm {
  readonly name: string;
  readonly kind: ProviderKind;
  readonly apiBaseUrl: string;
  readonly apiKey: string;
}

/**
 * Checks the add form before sending it, so the obvious mistakes are named beside their field;
 * the server checks again and its detail is shown for anything else.
 */
export function newProviderErrors(form: NewProviderForm): Partial<Record<keyof NewProviderForm, string>> {
  const errors: Partial<Record<keyof NewProviderForm, string>> = {};
  if (form.name.trim() === '') errors.name = 'Give the provider a name.';
  const url = form.apiBaseUrl.trim();
  if (url === '') errors.apiBaseUrl = 'Enter the API base URL.';
  else if (!/^https?:\/\/[^\s/]+/i.test(url)) errors.apiBaseUrl = 'The base URL starts with http:// or https://, e.g. http://127.0.0.1:11434/v1.';
  else if (/^https?:\/\/[^/]*@/i.test(url)) errors.apiBaseUrl = 'Put the key in the key field, not in the URL.';
  if (/\s/.test(form.apiKey.trim())) errors.apiKey = 'A key has no spaces.';
  return errors;
}

/** The POST body: trimmed, and the key only when one was typed. */
export function newProviderBody(form: NewProviderForm): { name: string; kind: ProviderKind; apiBaseUrl: string; apiKey?: string } {
  const apiKey = form.apiKey.trim();
  return { name: form.name.trim(), kind: form.kind, apiBaseUrl: form.apiBaseUrl.trim(), ...(apiKey ? { apiKey } : {}) };
}

/** How hard a model is asked to think; absent on a model: nothing is asked (the provider's default). */
export type Reasoning = NonNullable<ModelView['reasoning']>;

/** The Reasoning select's options: '' is the provider's default (sent as null). */
export const REASONING_OPTIONS: readonly { readonly value: '' | Reasoning; readonly label: string }[] = [
  { value: '', label: 'Provider default' },
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High' },
];

export const REASONING_HINT = 'How hard the model is asked to think (only for models that can reason)';

/** The select's value for a model: its reasoning, or '' when it has none (the provider's default). */
export function reasoningValue(model: Pick<ModelView, 'reasoning'>): '' | Reasoning {
  return model.reasoning ?? '';
}

/** The PATCH body for a select value: '' (or anything that is not an effort) asks for the provider's default. */
export function reasoningBody(value: string): { reasoning: Reasoning | null } {
  const option = REASONING_OPTIONS.find((o) => o.value === value && o.value !== '');
  return { reasoning: option ? (option.value as Reasoning) : null };
}

/** The success line after a change, e.g. "Reasoning for gpt-4o: High." */
export function reasoningSuccess(modelId: string, value: string): string {
  const { reasoning } = reasoningBody(value);
  const option = REASONING_OPTIONS.find((o) => o.value === reasoning);
  return option ? `Reasoning for ${modelId}: ${option.label}.` : `Reasoning for ${modelId}: Provider default (nothing asked).`;
}

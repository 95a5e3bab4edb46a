import { useEffect, useState } from 'preact/hooks';
import { useApi } from '../api/api-context';
import { seg } from '../api/client';
import { useResource, type Reload } from '../api/use-resource';
import { ActionStatus, useAction, type Action } from './action';
import {
  choiceValue,
  DEFAULT_BASE_URLS,
  defaultModelLabel,
  isReadOnly,
  keyStatus,
  kindLabel,
  modelChoices,
  newProviderBody,
  newProviderErrors,
  parseChoice,
  REASONING_HINT,
  REASONING_OPTIONS,
  reasoningBody,
  reasoningSuccess,
  reasoningValue,
  type NewProviderForm,
} from './provider-model';
import type { ModelView, ProviderKind, ProvidersAnswer, ProviderView } from '@oneclaw/api-contract';
import { PROVIDER_KINDS } from './provider-kinds';
import { LoadState } from './load-state';
import { FieldError, invalidProps } from './field-error';

/** Providers, their keys (write-only) and models, and the server's default model. */
export function ProvidersTab() {
  const { data, error, loading, reload } = useResource((api, signal) => api.get<ProvidersAnswer>('/api/providers', { signal }), []);
  // Deleting a provider removes its card, so its outcome is shown here, above the list.
  const listAction = useAction(reload);

  return (
    <section class="settings-tab" aria-labelledby="providers-title">
      <h2 id="providers-title">Providers</h2>
      <LoadState what="the providers" error={error} loaded={data !== undefined} reload={reload} />
      {data && (
        <>
          <DefaultModelForm answer={data} reload={reload} />
          <ActionStatus state={listAction.state} />
          {data.providers.length === 0 && <p class="muted">No providers yet. Add one below.</p>}
          <ul class="settings-list" aria-label="Providers" aria-busy={loading}>
            {data.providers.map((provider) => (
              <li key={provider.providerId}>
                <ProviderCard
                  provider={provider}
                  isDefault={(m) => data.defaultModel?.providerId === provider.providerId && data.defaultModel.modelId === m}
                  reload={reload}
                  listAction={listAction}
                />
              </li>
            ))}
          </ul>
          <AddProviderForm reload={reload} />
        </>
      )}
    </section>
  );
}

function DefaultModelForm({ answer, reload }: { answer: ProvidersAnswer; reload: Reload }) {
  const api = useApi();
  const action = useAction(reload);
  const current = answer.defaultModel ? choiceValue(answer.defaultModel) : '';
  const [selected, setSelected] = useState(current);
  // A reload (or another client's change) moves the selection to what the server has.
  useEffect(() => setSelected(current), [current]);
  const groups = modelChoices(answer);

  const submit = (event: Event) => {
    event.preventDefault();
    const ref = parseChoice(selected);
    if (!ref) return;
    void action.run({ progress: 'Setting the default model…', success: `Default model set to ${ref.modelId}.`, failure: 'Setting the default model' }, () =>
      api.put('/api/default-model', ref),
    );
  };

  return (
    <form class="card settings-default" onSubmit={submit} aria-labelledby="default-model-title">
      <h3 id="default-model-title">Default model</h3>
      <p>
        Now: <strong data-testid="default-model">{defaultModelLabel(answer)}</strong>
      </p>
      {groups.length === 0 ? (
        <p class="muted">No models listed yet: fetch or add models on a provider below, then choose one here.</p>
      ) : (
        <div class="settings-row">
          <label class="field settings-row__grow">
            <span>Model used when an agent names none</span>
            <select value={selected} onChange={(e) => setSelected((e.currentTarget as HTMLSelectElement).value)} disabled={action.busy}>
              {current === '' && <option value="">Choose a model</option>}
              {groups.map((group) => (
                <optgroup key={group.provider.providerId} label={group.provider.name}>
                  {group.choices.map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </label>
          <button type="submit" class="button button--primary" disabled={action.busy || selected === '' || selected === current}>
            Set default model
          </button>
        </div>
      )}
      <ActionStatus state={action.state} />
    </form>
  );
}

function ProviderCard({ provider, isDefault, reload, listAction }: { provider: ProviderView; isDefault: (modelId: string) => boolean; reload: Reload; listAction: Action }) {
  const api = useApi();
  const action = useAction(reload);
  const readOnly = isReadOnly(provider);
  const key = keyStatus(provider);
  const titleId = `provider-${provider.providerId}-title`;
  const base = `/api/providers/${seg(provider.providerId)}`;
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  return (
    <article class="card provider-card" aria-labelledby={titleId}>
      <header class="provider-card__header">
        <h3 id={titleId}>{provider.name}</h3>
        <div class="chips">
          <span class="chip">{kindLabel(provider.kind)}</span>
          <span class={`chip ${provider.isActive ? 'chip--ok' : 'chip--off'}`}>{provider.isActive ? 'Active' : 'Inactive'}</span>
          <span class={`chip ${key.ok ? 'chip--ok' : 'chip--warn'}`} data-testid="key-status">
            {key.label}
          </span>
          {readOnly && <span class="chip">Read-only</span>}
        </div>
      </header>
      <dl class="provider-card__facts">
        <dt>Base URL</dt>
        <dd>
          <code>{provider.apiBaseUrl}</code>
        </dd>
        <dt>Id</dt>
        <dd>
          <code>{provider.providerId}</code>
        </dd>
      </dl>
      {readOnly && <p class="muted">Set by the server's environment variables: change them there and restart the server. Its models can still be fetched and added here.</p>}

      {!readOnly && <KeyForm provider={provider} action={action} />}
      {!readOnly && <EditProviderForm provider={provider} action={action} />}

      <ModelsSection provider={provider} isDefault={isDefault} action={action} />
      <ActionStatus state={action.state} />

      {!readOnly && (
        <div class="provider-card__danger">
          {!confirmingDelete ? (
            <button type="button" class="button button--danger button--small" onClick={() => setConfirmingDelete(true)} disabled={listAction.busy}>
              Delete provider…
            </button>
          ) : (
            <div class="confirm" role="group" aria-label={`Confirm deleting ${provider.name}`}>
              <p>Delete {provider.name}? Its stored key and models go with it; agents that prefer it fall back to the default model.</p>
              <button
                type="button"
                class="button button--danger button--small"
                disabled={listAction.busy}
                onClick={() =>
                  void listAction.run({ progress: `Deleting ${provider.name}…`, success: `Deleted ${provider.name}.`, failure: `Deleting ${provider.name}` }, () =>
                    api.delete(base),
                  )
                }
              >
                Delete {provider.name}
              </button>{' '}
              <button type="button" class="button button--quiet button--small" onClick={() => setConfirmingDelete(false)}>
                Cancel
              </button>
            </div>
          )}
        </div>
      )}
    </article>
  );
}

/** Write-only: the field is a password field, cleared after storing, and the key is never read back. */
function KeyForm({ provider, action }: { provider: ProviderView; action: Action }) {
  const api = useApi();
  const [key, setKey] = useState('');
  const base = `/api/providers/${seg(provider.providerId)}`;
  const hasKey = provider.apiKey === 'set' || provider.apiKey === 'set_elsewhere';
  const inputId = `provider-${provider.providerId}-key`;

  const store = async (event: Event) => {
    event.preventDefault();
    const value = key.trim();
    if (!value) return;
    const ok = await action.run({ progress: 'Storing the key…', success: 'Key stored.', failure: 'Storing the key' }, () => api.put(`${base}/api-key`, { apiKey: value }));
    if (ok) setKey('');
  };

  return (
    <form class="provider-card__key" onSubmit={(e) => void store(e)}>
      <label class="field" for={inputId}>
        <span>{hasKey ? `Replace the API key of ${provider.name}` : `API key for ${provider.name}`}</span>
      </label>
      <div class="settings-row">
        <input
          id={inputId}
          type="password"
          autoComplete="new-password"
          spellcheck={false}
          value={key}
          onInput={(e) => setKey((e.currentTarget as HTMLInputElement).value)}
          class="settings-row__grow"
        />
        <button type="submit" class="button button--small" disabled={action.busy || key.trim() === ''}>
          {hasKey ? 'Replace key' : 'Store key'}
        </button>
        {hasKey && (
          <button
            type="button"
            class="button button--small button--quiet"
            disabled={action.busy}
            onClick={() => void action.run({ progress: 'Removing the key…', success: 'Key removed.', failure: 'Removing the key' }, () => api.delete(`${base}/api-key`))}
          >
            Remove key
          </button>
        )}
      </div>
    </form>
  );
}

function EditProviderForm({ provider, action }: { provider: ProviderView; action: Action }) {
  const api = useApi();
  const [name, setName] = useState(provider.name);
  const [url, setUrl] = useState(provider.apiBaseUrl);
  useEffect(() => {
    setName(provider.name);
    setUrl(provider.apiBaseUrl);
  }, [provider.name, provider.apiBaseUrl]);
  const base = `/api/providers/${seg(provider.providerId)}`;
  const changes = { ...(name.trim() !== provider.name ? { name: name.trim() } : {}), ...(url.trim() !== provider.apiBaseUrl ? { apiBaseUrl: url.trim() } : {}) };
  // The key stays with the provider when the user moves it (the chat cannot): say so before it is sent to the new address.
  const keyFollows = 'apiBaseUrl' in changes && (provider.apiKey === 'set' || provider.apiKey === 'set_elsewhere');
  const keyNoteId = `provider-${provider.providerId}-key-follows`;

  return (
    <details class="provider-card__edit">
      <summary>Edit name, URL or activity</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (Object.keys(changes).length === 0) return;
          void action.run({ progress: 'Saving the provider…', success: 'Provider saved.', failure: 'Saving the provider' }, () => api.patch(base, changes));
        }}
      >
        <label class="field">
          <span>Name</span>
          <input value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} required />
        </label>
        <label class="field">
          <span>API base URL</span>
          <input
            type="url"
            value={url}
            onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
            required
            spellcheck={false}
            {...(keyFollows ? { 'aria-describedby': keyNoteId } : {})}
          />
        </label>
        {keyFollows && (
          <p class="muted" id={keyNoteId}>
            The stored API key goes with the provider: requests to the new address will carry it. Replace or remove the key above if it is not meant for that server.
          </p>
        )}
        <button type="submit" class="button button--small" disabled={action.busy || Object.keys(changes).length === 0 || !name.trim() || !url.trim()}>
          Save name and URL
        </button>
      </form>
      <label class="switch">
        <input
          type="checkbox"
          role="switch"
          checked={provider.isActive}
          disabled={action.busy}
          onChange={(e) => {
            const isActive = (e.currentTarget as HTMLInputElement).checked;
            void action.run(
              {
                progress: isActive ? 'Activating…' : 'Deactivating…',
                success: isActive ? 'Provider active.' : 'Provider inactive: it is not used until activated.',
                failure: 'Changing the provider',
              },
              () => api.patch(base, { isActive }),
            );
          }}
        />
        <span>Active (used for requests)</span>
      </label>
    </details>
  );
}

function ModelsSection({ provider, isDefault, action }: { provider: ProviderView; isDefault: (modelId: string) => boolean; action: Action }) {
  const api = useApi();
  const [modelId, setModelId] = useState('');
  const base = `/api/providers/${seg(provider.providerId)}`;
  const inputId = `provider-${provider.providerId}-model`;
  const listId = `provider-${provider.providerId}-models`;

  const add = async (event: Event) => {
    event.preventDefault();
    const id = modelId.trim();
    if (!id) return;
    const ok = await action.run({ progress: `Adding ${id}…`, success: `Added ${id}.`, failure: `Adding ${id}` }, () => api.post(`${base}/models`, { modelId: id }));
    if (ok) setModelId('');
  };

  return (
    <section class="provider-card__models" aria-labelledby={listId}>
      <h4 id={listId}>Models ({provider.models.length})</h4>
      {provider.models.length === 0 ? (
        <p class="muted">None listed. Fetch them from the provider, or add one by id.</p>
      ) : (
        <ul class="model-list" aria-labelledby={listId}>
          {provider.models.map((model) => (
            <li key={model.modelId} class="model-list__item">
              <span class="model-list__name">
                <code>{model.modelId}</code>
                {model.displayName && model.displayName !== model.modelId && <span class="muted"> {model.displayName}</span>}
                {(model.isDefault || isDefault(model.modelId)) && <span class="chip chip--ok">Default</span>}
                <span class="muted model-list__source">{model.source}</span>
              </span>
              <span class="model-list__actions">
                <ReasoningSelect model={model} base={base} action={action} />
                {model.source !== 'environment' && (
                  <button
                    type="button"
                    class="button button--quiet button--small"
                    aria-label={`Delete model ${model.modelId}`}
                    disabled={action.busy}
                    onClick={() =>
                      void action.run({ progress: `Deleting ${model.modelId}…`, success: `Deleted ${model.modelId}.`, failure: `Deleting ${model.modelId}` }, () =>
                        api.delete(`${base}/models/${seg(model.modelId)}`),
                      )
                    }
                  >
                    Delete
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div class="settings-row">
        <button
          type="button"
          class="button button--small"
          disabled={action.busy}
          onClick={() =>
            void action.run({ progress: `Fetching the models of ${provider.name}…`, success: 'Models fetched.', failure: 'Fetching models' }, () =>
              api.post(`${base}/models/fetch`),
            )
          }
        >
          Fetch models
        </button>
      </div>
      <form class="settings-row" onSubmit={(e) => void add(e)}>
        <label class="field settings-row__grow" for={inputId}>
          <span>Model id to add to {provider.name}</span>
          <input
            id={inputId}
            value={modelId}
            spellcheck={false}
            autoCapitalize="off"
            onInput={(e) => setModelId((e.currentTarget as HTMLInputElement).value)}
            placeholder="e.g. gpt-4o-mini"
          />
        </label>
        <button type="submit" class="button button--small" disabled={action.busy || modelId.trim() === ''}>
          Add model
        </button>
      </form>
    </section>
  );
}

/**
 * How hard one model is asked to think (every model, the environment provider's too). While the
 * change runs the select shows the choice; afterwards, what the server has.
 */
function ReasoningSelect({ model, base, action }: { model: ModelView; base: string; action: Action }) {
  const api = useApi();
  const [pending, setPending] = useState<string | undefined>(undefined);
  const change = async (value: string) => {
    setPending(value);
    await action.run(
      { progress: `Setting the reasoning of ${model.modelId}…`, success: reasoningSuccess(model.modelId, value), failure: `Setting the reasoning of ${model.modelId}` },
      () => api.patch(`${base}/models/${seg(model.modelId)}`, reasoningBody(value)),
    );
    setPending(undefined);
  };

  return (
    <label class="model-list__reasoning" title={REASONING_HINT}>
      <span>Reasoning</span>
      <select
        aria-label={`Reasoning for ${model.modelId}`}
        title={REASONING_HINT}
        value={pending ?? reasoningValue(model)}
        disabled={action.busy}
        onChange={(e) => void change((e.currentTarget as HTMLSelectElement).value)}
      >
        {REASONING_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const EMPTY_FORM: NewProviderForm = { name: '', kind: 'openai', apiBaseUrl: DEFAULT_BASE_URLS.openai, apiKey: '' };

function AddProviderForm({ reload }: { reload: Reload }) {
  const api = useApi();
  const action = useAction(reload);
  const [form, setForm] = useState<NewProviderForm>(EMPTY_FORM);
  const [touched, setTouched] = useState(false);
  const errors = touched ? newProviderErrors(form) : {};
  const set = (patch: Partial<NewProviderForm>) => setForm((f) => ({ ...f, ...patch }));

  const submit = async (event: Event) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(newProviderErrors(form)).length > 0) return;
    const body = newProviderBody(form);
    const ok = await action.run({ progress: `Adding ${body.name}…`, success: `Added ${body.name}.`, failure: `Adding ${body.name}` }, () => api.post('/api/providers', body));
    if (ok) {
      setForm(EMPTY_FORM);
      setTouched(false);
    }
  };

  const changeKind = (kind: ProviderKind) =>
    // The URL follows the kind until the user typed their own.
    setForm((f) => ({ ...f, kind, apiBaseUrl: Object.values(DEFAULT_BASE_URLS).includes(f.apiBaseUrl) || f.apiBaseUrl === '' ? DEFAULT_BASE_URLS[kind] : f.apiBaseUrl }));

  return (
    <form class="card settings-add" onSubmit={(e) => void submit(e)} aria-labelledby="add-provider-title" noValidate>
      <h3 id="add-provider-title">Add a provider</h3>
      <label class="field">
        <span>Name</span>
        <input value={form.name} onInput={(e) => set({ name: (e.currentTarget as HTMLInputElement).value })} {...invalidProps('add-provider-name-error', errors.name)} />
        <FieldError id="add-provider-name-error" error={errors.name} />
      </label>
      <label class="field">
        <span>Kind</span>
        <select value={form.kind} onChange={(e) => changeKind((e.currentTarget as HTMLSelectElement).value as ProviderKind)}>
          {PROVIDER_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {kindLabel(kind)}
            </option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>API base URL</span>
        <input
          type="url"
          value={form.apiBaseUrl}
          spellcheck={false}
          autoCapitalize="off"
          onInput={(e) => set({ apiBaseUrl: (e.currentTarget as HTMLInputElement).value })}
          {...invalidProps('add-provider-url-error', errors.apiBaseUrl)}
        />
        <FieldError id="add-provider-url-error" error={errors.apiBaseUrl} />
      </label>
      <label class="field">
        <span>API key (optional, stored on the server and never shown again)</span>
        <input
          type="password"
          autoComplete="new-password"
          spellcheck={false}
          value={form.apiKey}
          onInput={(e) => set({ apiKey: (e.currentTarget as HTMLInputElement).value })}
          {...invalidProps('add-provider-key-error', errors.apiKey)}
        />
        <FieldError id="add-provider-key-error" error={errors.apiKey} />
      </label>
      <button type="submit" class="button button--primary" disabled={action.busy}>
        Add provider
      </button>
      <ActionStatus state={action.state} />
    </form>
  );
}

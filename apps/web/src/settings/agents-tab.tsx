import { useMemo, useState } from 'preact/hooks';
import { useApi } from '../api/api-context';
import { seg, type ApiClient } from '../api/client';
import { useResource, type Reload } from '../api/use-resource';
import { ActionStatus, useAction, type Action } from './action';
import { agentChanges, agentFormErrors, formOf, isDeletable, sourceLabel, toggleTool, type AgentForm } from './agent-form';
import { modelChoices, parseChoice } from './provider-model';
import type { AgentsAnswer, AgentView, ProvidersAnswer, ToolsAnswer, ToolSourceView } from '@oneclaw/api-contract';
import { allToolNames } from './tools-view';
import { LoadState } from './load-state';
import { FieldError, invalidProps } from './field-error';

interface AgentsData {
  readonly agents: readonly AgentView[];
  /** For the allow-list; undefined when the tools could not be read (the editor says so). */
  readonly toolSources?: readonly ToolSourceView[];
  readonly providers?: ProvidersAnswer;
}

async function loadAgents(api: ApiClient, signal: AbortSignal): Promise<AgentsData> {
  const [agents, tools, providers] = await Promise.all([
    api.get<AgentsAnswer>('/api/agents', { signal }),
    api.get<ToolsAnswer>('/api/tools', { signal }).catch(() => undefined),
    api.get<ProvidersAnswer>('/api/providers', { signal }).catch(() => undefined),
  ]);
  return { agents: agents.agents, ...(tools ? { toolSources: tools.sources } : {}), ...(providers ? { providers } : {}) };
}

/** Agents: who they are (system prompt), which tools they may use, which model they prefer. */
export function AgentsTab() {
  const { data, error, loading, reload } = useResource(loadAgents, []);
  const listAction = useAction(reload);

  return (
    <section class="settings-tab" aria-labelledby="agents-title">
      <h2 id="agents-title">Agents</h2>
      <LoadState what="the agents" error={error} loaded={data !== undefined} reload={reload} />
      {data && (
        <>
          <ActionStatus state={listAction.state} />
          <ul class="settings-list" aria-label="Agents" aria-busy={loading}>
            {data.agents.map((agent) => (
              <li key={agent.id}>
                <AgentCard agent={agent} data={data} reload={reload} listAction={listAction} />
              </li>
            ))}
          </ul>
          <CreateAgentForm reload={reload} />
        </>
      )}
    </section>
  );
}

function AgentCard({ agent, data, reload, listAction }: { agent: AgentView; data: AgentsData; reload: Reload; listAction: Action }) {
  const api = useApi();
  const action = useAction(reload);
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const titleId = `agent-${agent.id}-title`;
  const deletable = isDeletable(agent);

  return (
    <article class="card agent-card" aria-labelledby={titleId}>
      <header class="provider-card__header">
        <h3 id={titleId}>{agent.name}</h3>
        <div class="chips">
          <span class="chip">{sourceLabel(agent.source)}</span>
          <span class="chip">
            <code>{agent.id}</code>
          </span>
        </div>
      </header>
      {agent.description && <p>{agent.description}</p>}
      {!deletable && (
        <p class="muted">
          {agent.source === 'default' ? 'The server’s built-in agent' : 'Defined in agents.json'}: it cannot be deleted here; changes are kept as an overlay in the configuration.
        </p>
      )}
      {!editing ? (
        <>
          <dl class="agent-card__facts">
            <dt>System prompt</dt>
            <dd>
              <pre class="agent-card__prompt" data-testid="system-prompt">
                {agent.systemPrompt}
              </pre>
            </dd>
            <dt>Tools</dt>
            <dd>{agent.allowedTools === undefined ? 'All tools' : `${agent.allowedTools.length} allowed: ${agent.allowedTools.join(', ') || 'none'}`}</dd>
            <dt>Model</dt>
            <dd>
              {agent.preferredModelId ? `${providerName(data.providers, agent.preferredProviderId)} / ${agent.preferredModelId}` : agent.model ? agent.model : 'The default model'}
            </dd>
            <dt>Round cap</dt>
            <dd>{agent.maxRounds}</dd>
          </dl>
          <div class="settings-row">
            <button
              type="button"
              class="button button--small"
              onClick={() => {
                action.clear();
                setEditing(true);
              }}
              aria-label={`Edit ${agent.name}`}
            >
              Edit
            </button>
            {deletable && !confirmingDelete && (
              <button
                type="button"
                class="button button--danger button--small"
                onClick={() => setConfirmingDelete(true)}
                aria-label={`Delete ${agent.name}…`}
                disabled={listAction.busy}
              >
                Delete…
              </button>
            )}
          </div>
          {confirmingDelete && (
            <div class="confirm" role="group" aria-label={`Confirm deleting ${agent.name}`}>
              <p>Delete the agent {agent.name}? Sessions already started with it keep their history.</p>
              <button
                type="button"
                class="button button--danger button--small"
                disabled={listAction.busy}
                onClick={() =>
                  void listAction.run({ progress: `Deleting ${agent.name}…`, success: `Deleted ${agent.name}.`, failure: `Deleting ${agent.name}` }, () =>
                    api.delete(`/api/agents/${seg(agent.id)}`),
                  )
                }
              >
                Delete {agent.name}
              </button>{' '}
              <button type="button" class="button button--quiet button--small" onClick={() => setConfirmingDelete(false)}>
                Cancel
              </button>
            </div>
          )}
        </>
      ) : (
        <AgentEditor agent={agent} data={data} action={action} onClose={() => setEditing(false)} />
      )}
      <ActionStatus state={action.state} />
    </article>
  );
}

function AgentEditor({ agent, data, action, onClose }: { agent: AgentView; data: AgentsData; action: Action; onClose: () => void }) {
  const api = useApi();
  const [form, setForm] = useState<AgentForm>(() => formOf(agent));
  const [touched, setTouched] = useState(false);
  const errors = touched ? agentFormErrors(form) : {};
  const changes = agentChanges(agent, form);
  const unchanged = Object.keys(changes).length === 0;
  const set = (patch: Partial<AgentForm>) => setForm((f) => ({ ...f, ...patch }));
  const prefix = `agent-${agent.id}`;
  const preferredGroups = data.providers ? modelChoices(data.providers) : [];
  // A preferred model that is no longer listed stays selectable, so saving does not drop it silently.
  const preferredMissing = form.preferredModel !== '' && !preferredGroups.some((g) => g.choices.some((c) => c.value === form.preferredModel));

  const save = async (event: Event) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(agentFormErrors(form)).length > 0 || unchanged) return;
    const ok = await action.run({ progress: `Saving ${agent.name}…`, success: `Saved ${form.name.trim()}.`, failure: `Saving ${agent.name}` }, () =>
      api.patch(`/api/agents/${seg(agent.id)}`, changes),
    );
    if (ok) onClose();
  };

  return (
    <form class="agent-editor" onSubmit={(e) => void save(e)} aria-label={`Edit ${agent.name}`} noValidate>
      <label class="field">
        <span>Name</span>
        <input value={form.name} onInput={(e) => set({ name: (e.currentTarget as HTMLInputElement).value })} {...invalidProps(`${prefix}-name-error`, errors.name)} />
        <FieldError id={`${prefix}-name-error`} error={errors.name} />
      </label>
      <label class="field">
        <span>Description</span>
        <input value={form.description} onInput={(e) => set({ description: (e.currentTarget as HTMLInputElement).value })} />
      </label>
      <label class="field">
        <span>System prompt</span>
        <textarea
          rows={8}
          value={form.systemPrompt}
          onInput={(e) => set({ systemPrompt: (e.currentTarget as HTMLTextAreaElement).value })}
          {...invalidProps(`${prefix}-prompt-error`, errors.systemPrompt)}
        />
        <FieldError id={`${prefix}-prompt-error`} error={errors.systemPrompt} />
      </label>
      <AllowedToolsField form={form} set={set} sources={data.toolSources} prefix={prefix} />
      <label class="field">
        <span>Preferred model</span>
        <select value={form.preferredModel} onChange={(e) => set({ preferredModel: (e.currentTarget as HTMLSelectElement).value })}>
          <option value="">The default model</option>
          {preferredMissing && <option value={form.preferredModel}>{parseChoice(form.preferredModel)?.modelId ?? form.preferredModel} (not listed)</option>}
          {preferredGroups.map((group) => (
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
      <div class="settings-row">
        <button type="submit" class="button button--primary button--small" disabled={action.busy || unchanged}>
          Save {agent.name}
        </button>
        <button type="button" class="button button--quiet button--small" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** "All tools" or an allow-list picked from the catalogue, grouped by source file like the Tools tab. */
function AllowedToolsField({ form, set, sources, prefix }: { form: AgentForm; set: (patch: Partial<AgentForm>) => void; sources?: readonly ToolSourceView[]; prefix: string }) {
  const [filter, setFilter] = useState('');
  const known = useMemo(() => new Set(sources ? allToolNames(sources) : []), [sources]);
  // Names the agent allows that the catalogue does not have (a removed JS file): shown so they can be unticked.
  const unknown = form.allowedTools.filter((n) => !known.has(n));
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = (name: string, description: string) => words.every((w) => `${name} ${description}`.toLowerCase().includes(w));

  return (
    <fieldset class="allowed-tools">
      <legend>Tools this agent may use</legend>
      <label class="radio">
        <input type="radio" name={`${prefix}-tools`} checked={form.allTools} onChange={() => set({ allTools: true })} />
        <span>All tools</span>
      </label>
      <label class="radio">
        <input type="radio" name={`${prefix}-tools`} checked={!form.allTools} onChange={() => set({ allTools: false })} />
        <span>Only the tools ticked below ({form.allowedTools.length})</span>
      </label>
      {!form.allTools && !form.allowedTools.includes('load_tool_group') && <p class="muted">Tick load_tool_group too if the agent should load tool groups.</p>}
      {!form.allTools && (
        <div class="allowed-tools__picker">
          {!sources ? (
            <p class="error">The tool list could not be read; reload the page to pick tools.</p>
          ) : (
            <>
              <label class="field">
                <span>Filter the tool list</span>
                <input type="search" value={filter} onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
              </label>
              <div class="allowed-tools__list">
                {unknown.length > 0 && (
                  <fieldset>
                    <legend>Not in the catalogue</legend>
                    {unknown.map((name) => (
                      <ToolCheckbox key={name} name={name} form={form} set={set} />
                    ))}
                  </fieldset>
                )}
                {sources.map((source) => {
                  const tools = source.tools.filter((t) => shown(t.name, t.description));
                  if (tools.length === 0) return null;
                  return (
                    <fieldset key={source.fileName}>
                      <legend>{source.fileName}</legend>
                      {tools.map((tool) => (
                        <ToolCheckbox key={tool.name} name={tool.name} form={form} set={set} />
                      ))}
                    </fieldset>
                  );
                })}
              </div>
            </>
          )}
        </div>
      )}
    </fieldset>
  );
}

function ToolCheckbox({ name, form, set }: { name: string; form: AgentForm; set: (patch: Partial<AgentForm>) => void }) {
  return (
    <label class="checkbox">
      <input
        type="checkbox"
        checked={form.allowedTools.includes(name)}
        onChange={(e) => set({ allowedTools: toggleTool(form.allowedTools, name, (e.currentTarget as HTMLInputElement).checked) })}
      />
      <code>{name}</code>
    </label>
  );
}

function CreateAgentForm({ reload }: { reload: Reload }) {
  const api = useApi();
  const action = useAction(reload);
  const empty = { name: '', description: '', systemPrompt: '' };
  const [form, setForm] = useState(empty);
  const [touched, setTouched] = useState(false);
  const errors = touched ? agentFormErrors(form) : {};

  const submit = async (event: Event) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(agentFormErrors(form)).length > 0) return;
    const description = form.description.trim();
    const body = { name: form.name.trim(), systemPrompt: form.systemPrompt, ...(description ? { description } : {}) };
    const ok = await action.run({ progress: `Creating ${body.name}…`, success: `Created ${body.name}.`, failure: `Creating ${body.name}` }, () => api.post('/api/agents', body));
    if (ok) {
      setForm(empty);
      setTouched(false);
    }
  };

  return (
    <form class="card settings-add" onSubmit={(e) => void submit(e)} aria-labelledby="create-agent-title" noValidate>
      <h3 id="create-agent-title">Create an agent</h3>
      <label class="field">
        <span>Name</span>
        <input
          value={form.name}
          onInput={(e) => setForm({ ...form, name: (e.currentTarget as HTMLInputElement).value })}
          {...invalidProps('create-agent-name-error', errors.name)}
        />
        <FieldError id="create-agent-name-error" error={errors.name} />
      </label>
      <label class="field">
        <span>Description (optional)</span>
        <input value={form.description} onInput={(e) => setForm({ ...form, description: (e.currentTarget as HTMLInputElement).value })} />
      </label>
      <label class="field">
        <span>System prompt</span>
        <textarea
          rows={5}
          value={form.systemPrompt}
          onInput={(e) => setForm({ ...form, systemPrompt: (e.currentTarget as HTMLTextAreaElement).value })}
          {...invalidProps('create-agent-prompt-error', errors.systemPrompt)}
        />
        <FieldError id="create-agent-prompt-error" error={errors.systemPrompt} />
      </label>
      <button type="submit" class="button button--primary" disabled={action.busy}>
        Create agent
      </button>
      <ActionStatus state={action.state} />
    </form>
  );
}

function providerName(providers: ProvidersAnswer | undefined, providerId: string | undefined): string {
  if (!providerId) return '';
  return providers?.providers.find((p) => p.providerId === providerId)?.name ?? providerId;
}

import { useMemo, useState } from 'preact/hooks';
import { useApi } from '../api/api-context';
import { seg } from '../api/client';
import { useResource } from '../api/use-resource';
import type { SessionView, ToolGroupView, ToolSourceView } from '@oneclaw/api-contract';
import { asActionError, type ActionError } from '../chat/chat-store';
import { CheckIcon, ChevronIcon } from '../icons/icons';
import { routeHref } from '../routes';
import { filterGroups, sourceLabel, toolsByName, type ToolInfo } from './group-catalogue';
import './groups.css';

/**
 * Every tool group the model could load, searchable, each expandable to its tools. Opened from
 * a session (`#/groups?session=id`) it also loads groups into that session and shows which are
 * loaded already.
 */
export function GroupsPage({ sessionId }: { sessionId?: string }) {
  const catalogue = useResource(async (api, signal) => {
    const [groups, tools] = await Promise.all([
      api.get<{ groups: ToolGroupView[] }>('/api/tool-groups', { signal }),
      // Descriptions only enrich the list: without them the groups are still usable.
      api.get<{ sources: ToolSourceView[] }>('/api/tools', { signal }).catch(() => ({ sources: [] as ToolSourceView[] })),
    ]);
    return { groups: groups.groups, tools: toolsByName(tools.sources) };
  }, []);
  const session = useResource((api, signal) => (sessionId ? api.get<SessionView>(`/api/sessions/${seg(sessionId)}`, { signal }) : Promise.resolve(undefined)), [sessionId]);
  const [query, setQuery] = useState('');
  // The answers of this page's own loads; newer than the session read above.
  const [loadedHere, setLoadedHere] = useState<readonly string[] | undefined>();
  const loadedGroups = loadedHere ?? session.data?.loadedGroups ?? [];

  const groups = catalogue.data?.groups ?? [];
  const shown = useMemo(() => filterGroups(groups, query, catalogue.data?.tools), [groups, query, catalogue.data]);
  const sessionUsable = Boolean(sessionId && session.data);

  return (
    <section class="page groups" aria-labelledby="groups-title">
      <h1 id="groups-title">Tool groups</h1>
      {sessionId ? (
        <p class="groups__session">
          Loading into the current session. <a href={routeHref({ name: 'chat', sessionId })}>Back to the chat</a>
        </p>
      ) : (
        <p class="muted groups__session">The model loads these with load_tool_group when it needs them. Open this page from a chat to load one yourself.</p>
      )}
      {sessionId && session.error && (
        <p class="error" role="alert">
          Could not read the session: {session.error.detail}
        </p>
      )}

      <div class="groups__search">
        <label class="field">
          <span>Search groups</span>
          <input type="search" value={query} placeholder="Name, description or tool" onInput={(e) => setQuery(e.currentTarget.value)} />
        </label>
        <p class="muted groups__count" role="status">
          {catalogue.data ? (shown.length === groups.length ? `${groups.length} groups` : `${shown.length} of ${groups.length} groups`) : ''}
        </p>
      </div>

      {catalogue.error && (
        <p class="error" role="alert">
          Could not load the tool groups: {catalogue.error.detail}{' '}
          <button type="button" class="button button--small" onClick={catalogue.reload}>
            Try again
          </button>
        </p>
      )}
      {!catalogue.data && catalogue.loading && <p class="muted">Loading the tool groups…</p>}
      {catalogue.data && shown.length === 0 && <p class="muted">No group matches “{query}”.</p>}

      <ul class="group-list">
        {shown.map((group) => (
          <GroupCard
            key={group.name}
            group={group}
            tools={catalogue.data!.tools}
            sessionId={sessionUsable ? sessionId : undefined}
            loaded={loadedGroups.includes(group.name)}
            onLoadedGroups={setLoadedHere}
          />
        ))}
      </ul>
    </section>
  );
}

function GroupCard(props: {
  group: ToolGroupView;
  tools: ReadonlyMap<string, ToolInfo>;
  sessionId: string | undefined;
  loaded: boolean;
  onLoadedGroups: (groups: readonly string[]) => void;
}) {
  const { group, tools, sessionId, loaded } = props;
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | undefined>();
  const titleId = `group-${group.name}`;
  const toolsId = `group-tools-${group.name}`;

  async function change(load: boolean) {
    if (!sessionId) return;
    setBusy(true);
    setError(undefined);
    try {
      const base = `/api/sessions/${seg(sessionId)}/tool-groups`;
      const view = load ? await api.post<SessionView>(base, { groupName: group.name }) : await api.delete<SessionView>(`${base}/${seg(group.name)}`);
      props.onLoadedGroups(view.loadedGroups);
    } catch (e) {
      setError(asActionError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li class={`card group-card${loaded ? ' group-card--loaded' : ''}`} aria-labelledby={titleId}>
      <div class="group-card__head">
        <h2 id={titleId} class="group-card__title">
          {group.displayName}
        </h2>
        <code class="group-card__name">{group.name}</code>
        {!group.enabled && <span class="chip group-card__disabled">Disabled</span>}
      </div>
      {group.description && <p class="group-card__description">{group.description}</p>}
      <p class="group-card__meta muted">
        {sourceLabel(group.source)}
        {typeof group.schemaTokens === 'number' && ` · ${group.schemaTokens.toLocaleString()} schema tokens when loaded`}
      </p>
      <div class="group-card__actions">
        <button type="button" class="button button--small" aria-expanded={open} aria-controls={toolsId} onClick={() => setOpen(!open)}>
          <ChevronIcon open={open} /> {group.toolNames.length} {group.toolNames.length === 1 ? 'tool' : 'tools'}
          <span class="visually-hidden"> of {group.displayName}</span>
        </button>
        {sessionId &&
          (loaded ? (
            <>
              <span class="group-card__loaded">
                <CheckIcon /> Loaded<span class="visually-hidden"> into the session</span>
              </span>
              <button type="button" class="button button--small button--quiet" disabled={busy} onClick={() => change(false)}>
                Unload<span class="visually-hidden"> {group.displayName}</span>
              </button>
            </>
          ) : (
            <button type="button" class="button button--primary button--small" disabled={busy || !group.enabled} onClick={() => change(true)}>
              {busy ? 'Loading…' : 'Load into session'}
              <span class="visually-hidden"> {group.displayName}</span>
            </button>
          ))}
      </div>
      {error && (
        <p class="error" role="alert">
          {error.detail}
        </p>
      )}
      <ul id={toolsId} class="group-card__tools" hidden={!open}>
        {open &&
          group.toolNames.map((name) => {
            const tool = tools.get(name);
            return (
              <li key={name} class={tool && !tool.enabled ? 'group-card__tool--disabled' : undefined}>
                <code>{name}</code>
                {tool && !tool.enabled && <span class="chip"> Disabled</span>}
                {tool?.description && <p class="group-card__tool-description">{tool.description}</p>}
              </li>
            );
          })}
      </ul>
    </li>
  );
}

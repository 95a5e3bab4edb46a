import { useEffect, useState } from 'preact/hooks';
import { useApi } from '../api/api-context';
import { seg, type ApiClient } from '../api/client';
import { useResource } from '../api/use-resource';
import { ActionStatus, useAction, type Action } from './action';
import type { ToolGroupsAnswer, ToolGroupView, ToolsAnswer, ToolSourceView } from '@oneclaw/api-contract';
import { countLabel, countsOf, filterSources, groupsOfSource, sourceKindLabel, totalsOf } from './tools-view';
import { LoadState } from './load-state';

interface ToolsData {
  readonly sources: readonly ToolSourceView[];
  readonly groups: readonly ToolGroupView[];
}

async function loadTools(api: ApiClient, signal: AbortSignal): Promise<ToolsData> {
  const [tools, groups] = await Promise.all([
    api.get<ToolsAnswer>('/api/tools', { signal }),
    // Group names and descriptions dress the cards up; the tools are the screen.
    api.get<ToolGroupsAnswer>('/api/tool-groups', { signal }).catch((): Pick<ToolGroupsAnswer, 'groups'> => ({ groups: [] })),
  ]);
  return { sources: tools.sources, groups: groups.groups };
}

/** A card open by default lists at most this many tools; bigger ones (the built-ins) open on demand. */
const OPEN_UP_TO = 12;

/**
 * Tools grouped by the file they come from, as the origin's JS tool settings show them: file
 * name, kind, group, tool count, load problems, and a switch per tool and per group.
 */
export function ToolsTab() {
  const api = useApi();
  const { data, error, loading, reload } = useResource(loadTools, []);
  const action = useAction(reload);
  const [query, setQuery] = useState('');
  // What the user just switched, shown until the reloaded list arrives so a switch never flicks back.
  const [pending, setPending] = useState<Readonly<Record<string, boolean>>>({});
  useEffect(() => setPending({}), [data]);

  const toggle = async (target: 'tool' | 'group', name: string, enabled: boolean) => {
    const key = `${target}:${name}`;
    setPending((p) => ({ ...p, [key]: enabled }));
    const path = target === 'tool' ? `/api/tools/${seg(name)}/enabled` : `/api/tool-groups/${seg(name)}/enabled`;
    const label = target === 'tool' ? name : `group ${name}`;
    const ok = await action.run(
      {
        progress: `${enabled ? 'Enabling' : 'Disabling'} ${label}…`,
        success: `${label} ${enabled ? 'enabled' : 'disabled'}.`,
        failure: `${enabled ? 'Enabling' : 'Disabling'} ${label}`,
      },
      () => api.put(path, { enabled }),
    );
    if (!ok)
      setPending((p) => {
        const { [key]: _dropped, ...rest } = p;
        return rest;
      });
  };

  const shown = data ? filterSources(data.sources, query, data.groups) : [];
  const totals = data ? totalsOf(data.sources) : undefined;

  return (
    <section class="settings-tab" aria-labelledby="tools-title">
      <h2 id="tools-title">Tools</h2>
      <LoadState what="the tools" error={error} loaded={data !== undefined} reload={reload} />
      {data && totals && (
        <>
          <p class="muted" data-testid="tools-totals">
            {totals.tools} tools from {totals.files} source files, {totals.enabled} enabled. A disabled tool is not offered to the model from its next request on.
          </p>
          {totals.filesWithErrors.length > 0 && (
            <div class="error tools-errors">
              <strong>Load errors</strong> in {totals.filesWithErrors.join(', ')}: the broken entries were skipped, the rest of each file loaded. See the file below.
            </div>
          )}
          <label class="field tools-filter">
            <span>Filter tools</span>
            <input type="search" value={query} placeholder="name, description, file or group" onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
          </label>
          <ActionStatus state={action.state} class="tools-status" />
          {query.trim() !== '' && (
            <p class="muted" role="status">
              {shown.length === 0 ? 'Nothing matches the filter.' : `${shown.length} of ${data.sources.length} source files match.`}
            </p>
          )}
          <ul class="settings-list" aria-label="Tool source files" aria-busy={loading}>
            {shown.map((source) => (
              <li key={source.fileName}>
                <SourceCard source={source} groups={data.groups} pending={pending} action={action} filtering={query.trim() !== ''} onToggle={(t, n, e) => void toggle(t, n, e)} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function SourceCard({
  source,
  groups,
  pending,
  action,
  filtering,
  onToggle,
}: {
  source: ToolSourceView;
  groups: readonly ToolGroupView[];
  pending: Readonly<Record<string, boolean>>;
  action: Action;
  filtering: boolean;
  onToggle: (target: 'tool' | 'group', name: string, enabled: boolean) => void;
}) {
  const counts = countsOf(source);
  const titleId = `source-${cssId(source.fileName)}-title`;
  const groupNames = groupsOfSource(source);
  const ownGroup = source.group ? groups.find((g) => g.name === source.group) : undefined;
  const description = source.description ?? ownGroup?.description;

  return (
    <article class={`card tool-source${counts.errors > 0 ? ' tool-source--error' : ''}`} aria-labelledby={titleId} data-file={source.fileName}>
      <header class="tool-source__header">
        <h3 id={titleId}>
          <code>{source.fileName}</code>
        </h3>
        <div class="chips">
          <span class="chip">{sourceKindLabel(source.kind)}</span>
          <span class="chip" data-testid="tool-count">
            {countLabel(counts)}
          </span>
          {counts.errors > 0 && <span class="chip chip--error">{counts.errors === 1 ? '1 error' : `${counts.errors} errors`}</span>}
          {counts.warnings > 0 && <span class="chip chip--warn">{counts.warnings === 1 ? '1 warning' : `${counts.warnings} warnings`}</span>}
        </div>
      </header>
      {source.group && (
        <p class="tool-source__group">
          Group <strong>{ownGroup?.displayName ?? source.group}</strong> <code class="muted">{source.group}</code>
        </p>
      )}
      {description && <p class="muted tool-source__description">{description}</p>}

      {source.problems.length > 0 && (
        <ul class="tool-problems" aria-label={`Load problems in ${source.fileName}`}>
          {source.problems.map((problem, i) => (
            <li key={i} class={problem.severity === 'error' ? 'error' : 'notice'}>
              <strong>{problem.severity === 'error' ? 'Error' : 'Warning'}</strong>
              {problem.tool ? (
                <>
                  {' '}
                  in <code>{problem.tool}</code>
                </>
              ) : null}
              : {problem.message}
            </li>
          ))}
        </ul>
      )}

      {groupNames.length > 0 && (
        <div class="tool-source__groups">
          {groupNames.map((name) => {
            const group = groups.find((g) => g.name === name);
            const enabled = pending[`group:${name}`] ?? group?.enabled ?? true;
            return (
              <label key={name} class="switch">
                <input
                  type="checkbox"
                  role="switch"
                  checked={enabled}
                  disabled={action.busy || !group}
                  onChange={(e) => onToggle('group', name, (e.currentTarget as HTMLInputElement).checked)}
                />
                <span aria-hidden="true">
                  Whole group <code>{name}</code>: {enabled ? 'on' : 'off'}
                </span>
                <span class="visually-hidden">Enable group {name}</span>
              </label>
            );
          })}
        </div>
      )}

      {source.tools.length > 0 ? (
        <details class="tool-source__tools" open={filtering || source.tools.length <= OPEN_UP_TO}>
          <summary>
            Tools in {source.fileName} ({source.tools.length})
          </summary>
          <ul class="tool-list">
            {source.tools.map((tool) => {
              const enabled = pending[`tool:${tool.name}`] ?? tool.enabled;
              return (
                <li key={tool.name} class={`tool-list__item${enabled ? '' : ' tool-list__item--off'}`}>
                  <div class="tool-list__text">
                    <code class="tool-list__name">{tool.name}</code>
                    <span class="tool-list__description">{tool.description}</span>
                  </div>
                  <label class="switch tool-list__switch">
                    <input
                      type="checkbox"
                      role="switch"
                      checked={enabled}
                      disabled={action.busy}
                      onChange={(e) => onToggle('tool', tool.name, (e.currentTarget as HTMLInputElement).checked)}
                    />
                    <span aria-hidden="true">{enabled ? 'On' : 'Off'}</span>
                    <span class="visually-hidden">Enable {tool.name}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </details>
      ) : (
        <p class="muted">No tools loaded from this file.</p>
      )}
    </article>
  );
}

function cssId(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '-');
}

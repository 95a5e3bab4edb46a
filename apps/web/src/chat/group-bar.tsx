import { useRef, useState } from 'preact/hooks';
import { routeHref } from '../routes';
import type { ToolGroupView } from '@oneclaw/api-contract';

/**
 * The session's loaded tool groups as chips, each with an unload button, and a small form that
 * loads another group. Loading and unloading are by the user (ToolGroupLoaded source "user");
 * the model's own loads arrive as `group_loaded` and show here too.
 */
export function GroupBar(props: {
  sessionId: string;
  loadedGroups: readonly string[];
  groups: readonly ToolGroupView[] | undefined;
  onLoad: (groupName: string) => Promise<boolean>;
  onUnload: (groupName: string) => Promise<boolean>;
  /**
   * A reply is running (here or in another window): the server refuses the user's load and
   * unload until it ends (409 turn_in_progress), since that turn keeps the tools it started with.
   */
  busy?: boolean;
}) {
  const { sessionId, loadedGroups, groups } = props;
  const waiting = props.busy === true;
  const waitNote = waiting ? 'Wait for the reply to finish' : undefined;
  const [adding, setAdding] = useState(false);
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState<string | undefined>();
  const addButton = useRef<HTMLButtonElement>(null);

  const displayName = (name: string) => groups?.find((g) => g.name === name)?.displayName;
  const loadable = (groups ?? []).filter((g) => g.enabled && !loadedGroups.includes(g.name));
  const selected = loadable.some((g) => g.name === choice) ? choice : (loadable[0]?.name ?? '');

  async function unload(name: string) {
    setBusy(name);
    await props.onUnload(name);
    setBusy(undefined);
    // The chip and its button are gone: keep the keyboard user in the same place.
    addButton.current?.focus();
  }

  async function load(event: Event) {
    event.preventDefault();
    if (!selected) return;
    setBusy(selected);
    const ok = await props.onLoad(selected);
    setBusy(undefined);
    if (ok) {
      setAdding(false);
      addButton.current?.focus();
    }
  }

  return (
    <div class="group-bar">
      {/* "Groups" fits a phone's row; the heading and the chip list are named in full. */}
      <h2 id="group-bar-title" class="group-bar__title" aria-label="Tool groups">
        Groups
      </h2>
      {loadedGroups.length === 0 ? (
        <p class="group-bar__none muted">None loaded: core tools only.</p>
      ) : (
        <ul class="group-bar__chips" aria-labelledby="group-bar-title">
          {loadedGroups.map((name) => (
            <li key={name} class="chip group-chip" title={displayName(name)}>
              <span>{name}</span>
              <button type="button" class="group-chip__remove" aria-label={`Unload ${name}`} disabled={busy === name || waiting} title={waitNote} onClick={() => unload(name)}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button ref={addButton} type="button" class="button button--small group-bar__add" aria-expanded={adding} aria-controls="add-group-form" onClick={() => setAdding(!adding)}>
        Add group
      </button>
      <form id="add-group-form" class="group-bar__form" hidden={!adding} onSubmit={load}>
        {groups === undefined ? (
          <p class="muted">Loading the groups…</p>
        ) : loadable.length === 0 ? (
          <p class="muted">Every available group is loaded.</p>
        ) : (
          <>
            <label class="group-bar__label">
              <span>Group to load</span>
              <select value={selected} onChange={(e) => setChoice(e.currentTarget.value)}>
                {loadable.map((g) => (
                  <option key={g.name} value={g.name}>
                    {g.displayName} ({g.name})
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" class="button button--primary button--small" disabled={busy !== undefined || waiting} title={waitNote}>
              Load group
            </button>
          </>
        )}
        <a class="group-bar__browse" href={routeHref({ name: 'groups', sessionId })}>
          Browse all groups
        </a>
      </form>
    </div>
  );
}

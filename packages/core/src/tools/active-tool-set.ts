import type { SessionState } from '../session/session-state';
import type { ToolCatalogue } from './tool-catalogue';

export interface ActiveToolSetOptions {
  /** The agent's allowed tools; undefined means every tool (T5). */
  readonly allowedTools?: ReadonlySet<string>;
}

/**
 * The tools the model may see and call now: core tools, then the tools of each loaded group in
 * load order, each in registration order, without duplicates, minus disabled tools and tools the
 * agent does not allow. Derived, never stored: the same stream and catalogue give the same list.
 * A loaded group's tools follow the catalogue (a JS group edited on disk shows its new tools);
 * what the model actually saw at a request is the `ModelRequested` event's `toolNames`.
 */
export function activeToolSet(state: SessionState, catalogue: ToolCatalogue, options: ActiveToolSetOptions = {}): readonly string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  const offer = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    if (!catalogue.isToolEnabled(name)) return;
    if (options.allowedTools && !options.allowedTools.has(name)) return;
    result.push(name);
  };
  catalogue.coreToolNames().forEach(offer);
  for (const group of state.loadedGroups) catalogue.groupToolNames(group.groupName).forEach(offer);
  return result;
}

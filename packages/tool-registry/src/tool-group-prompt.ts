import type { ToolGroupDefinition } from './tool-group-definition';
import type { ToolRegistry } from './tool-registry';

export const TOOL_GROUP_PROMPT_HEADING = '## Available Tool Groups';
export const TOOL_GROUP_PROMPT_INSTRUCTION = 'Load a group with `load_tool_group` to use its tools.';
export const MAX_GROUP_DESCRIPTION_CHARS = 200;

export interface ToolGroupPromptOptions {
  /** The agent's allowed tools (T5): a group none of whose tools the agent may use is not listed. */
  readonly allowedTools?: ReadonlySet<string>;
}

/**
 * The system prompt section listing tool groups (G2), in the RFC-040 format:
 *
 *     ## Available Tool Groups
 *
 *     Load a group with `load_tool_group` to use its tools.
 *
 *     - name: description
 *
 * Groups are listed in registration order; a group with no enabled tool is left out (loading it
 * could only fail with `empty_group`). Empty string when nothing is listed.
 */
export function renderToolGroupPrompt(groups: readonly ToolGroupDefinition[]): string {
  if (groups.length === 0) return '';
  const lines = groups.map((g) => `- ${g.name}: ${shorten(g.description)}`);
  return `${TOOL_GROUP_PROMPT_HEADING}\n\n${TOOL_GROUP_PROMPT_INSTRUCTION}\n\n${lines.join('\n')}`;
}

/** Collapses whitespace (a newline would break the listing) and cuts at 200 chars with "…" (G9). */
export function shorten(description: string, max = MAX_GROUP_DESCRIPTION_CHARS): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/** The section for a registry, rendered once per registry version (and allowed-tools set). */
export class ToolGroupPrompt {
  private version = -1;
  private unfiltered: string | undefined;
  private filtered = new WeakMap<ReadonlySet<string>, string>();

  constructor(private readonly registry: ToolRegistry) {}

  render(options: ToolGroupPromptOptions = {}): string {
    if (this.version !== this.registry.version) {
      this.version = this.registry.version;
      this.unfiltered = undefined;
      this.filtered = new WeakMap();
    }
    const allowed = options.allowedTools;
    if (!allowed) return (this.unfiltered ??= this.build(undefined));
    let text = this.filtered.get(allowed);
    if (text === undefined) {
      text = this.build(allowed);
      this.filtered.set(allowed, text);
    }
    return text;
  }

  private build(allowed: ReadonlySet<string> | undefined): string {
    const listed = this.registry.allGroups().filter((g) => this.registry.groupToolNames(g.name).some((t) => this.registry.isToolEnabled(t) && (!allowed || allowed.has(t))));
    return renderToolGroupPrompt(listed);
  }
}

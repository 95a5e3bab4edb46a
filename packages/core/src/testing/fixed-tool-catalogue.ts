import type { ToolCatalogue } from '../tools/tool-catalogue';

export interface FixedCatalogueSpec {
  readonly core: readonly string[];
  readonly groups: Readonly<Record<string, readonly string[]>>;
}

/** A small, fixed catalogue for domain tests; `disable` imitates the registry's enable/disable. */
export class FixedToolCatalogue implements ToolCatalogue {
  private readonly disabled = new Set<string>();

  constructor(private readonly spec: FixedCatalogueSpec) {}

  coreToolNames(): readonly string[] {
    return this.spec.core;
  }
  hasGroup(groupName: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.spec.groups, groupName);
  }
  groupToolNames(groupName: string): readonly string[] {
    return this.hasGroup(groupName) ? (this.spec.groups[groupName] as readonly string[]) : [];
  }
  groupNames(): readonly string[] {
    return Object.keys(this.spec.groups);
  }
  isToolEnabled(toolName: string): boolean {
    return !this.disabled.has(toolName);
  }
  disable(toolName: string): this {
    this.disabled.add(toolName);
    return this;
  }
}

/** The seed's shape in miniature: a few core tools, two Google groups, and a 17-tool config group. */
export function testCatalogue(): FixedToolCatalogue {
  return new FixedToolCatalogue({
    core: ['load_tool_group', 'get_current_time', 'read_file', 'write_file'],
    groups: {
      google_gmail: ['gmail_search', 'gmail_get_message', 'gmail_send', 'gmail_trash'],
      google_drive: ['drive_list_files', 'drive_get_file'],
      config: Array.from({ length: 17 }, (_, i) => `config_tool_${String(i + 1).padStart(2, '0')}`),
      empty_group: [],
    },
  });
}

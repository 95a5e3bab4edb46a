/** Group metadata: listed in the prompt, used by load_tool_group. */
export interface ToolGroupDefinition {
  /** Unique snake_case id the model passes to load_tool_group, e.g. "google_gmail". */
  readonly name: string;
  /** Human-readable, e.g. "Google Gmail"; shown in load_tool_group's answer and the UI. */
  readonly displayName: string;
  /** One line of what the group can do. */
  readonly description: string;
}

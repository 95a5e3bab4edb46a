import { Query } from '@nestjs/cqrs';
import type { ToolSourceKind } from '@oneclaw/tool-registry';

export interface ToolView {
  readonly name: string;
  readonly description: string;
  readonly group?: string;
  readonly enabled: boolean;
}

/** One source file (a JS manifest, or the TypeScript built-ins) and its tools: the settings screen's sections. */
export interface ToolSourceView {
  readonly fileName: string;
  readonly kind: ToolSourceKind;
  readonly group?: string;
  /** The group's description, when the file is a group file. */
  readonly description?: string;
  readonly tools: readonly ToolView[];
  /** Manifest problems of this file (skipped entries, refused names...). */
  readonly problems: readonly { readonly severity: 'error' | 'warning'; readonly tool?: string; readonly message: string }[];
}

export class ListToolsQuery extends Query<readonly ToolSourceView[]> {}

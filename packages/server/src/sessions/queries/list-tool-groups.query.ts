import { Query } from '@nestjs/cqrs';
import type { ToolSourceKind } from '@oneclaw/tool-registry';

export interface ToolGroupView {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly toolNames: readonly string[];
  readonly enabled: boolean;
  readonly source: { readonly kind: ToolSourceKind; readonly fileName?: string };
}

export class ListToolGroupsQuery extends Query<readonly ToolGroupView[]> {}

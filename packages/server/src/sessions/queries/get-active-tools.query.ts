import { Query } from '@nestjs/cqrs';

export interface ActiveToolView {
  readonly name: string;
  readonly description: string;
  /** Absent for a core tool. */
  readonly group?: string;
}

export interface ActiveTools {
  readonly sessionId: string;
  readonly revision: number | 'no_stream';
  readonly loadedGroups: readonly string[];
  readonly tools: readonly ActiveToolView[];
}

export class GetActiveToolsQuery extends Query<ActiveTools> {
  constructor(readonly sessionId: string) {
    super();
  }
}

import { Query } from '@nestjs/cqrs';
import type { ActiveTools } from '@oneclaw/api-contract';

export class GetActiveToolsQuery extends Query<ActiveTools> {
  constructor(readonly sessionId: string) {
    super();
  }
}

import { Query } from '@nestjs/cqrs';
import type { AuditTrail } from '@oneclaw/core';

export class GetAuditTrailQuery extends Query<AuditTrail> {
  constructor(readonly sessionId: string) {
    super();
  }
}

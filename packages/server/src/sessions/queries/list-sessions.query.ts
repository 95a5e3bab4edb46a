import { Query } from '@nestjs/cqrs';
import type { SessionSummary } from '../session-index';

export class ListSessionsQuery extends Query<readonly SessionSummary[]> {}

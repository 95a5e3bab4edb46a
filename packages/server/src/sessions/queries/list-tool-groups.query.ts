import { Query } from '@nestjs/cqrs';
import type { ToolGroupsAnswer } from '@oneclaw/api-contract';

/** Every group with its tools and the tokens its schemas cost, and the catalogue's totals (the audit view's baseline). */
export class ListToolGroupsQuery extends Query<ToolGroupsAnswer> {}

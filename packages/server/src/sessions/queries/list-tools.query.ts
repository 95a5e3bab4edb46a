import { Query } from '@nestjs/cqrs';
import type { ToolSourceView } from '@oneclaw/api-contract';

/** Every source file (a JS manifest, or the TypeScript built-ins) with its tools and manifest problems. */
export class ListToolsQuery extends Query<readonly ToolSourceView[]> {}

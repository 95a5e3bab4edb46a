import { Query } from '@nestjs/cqrs';
import type { AgentsAnswer } from '@oneclaw/api-contract';

/** Every agent: the default one, those of agents.json and those of the configuration, caught up with other replicas. */
export class ListAgentsQuery extends Query<AgentsAnswer> {}

import { Query } from '@nestjs/cqrs';
import type { AgentView } from './agent-view';

/** Every agent: the default one, those of agents.json and those of the configuration, caught up with other replicas. */
export class ListAgentsQuery extends Query<{ readonly agents: readonly AgentView[] }> {}

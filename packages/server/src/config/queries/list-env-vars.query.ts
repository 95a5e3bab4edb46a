import { Query } from '@nestjs/cqrs';
import type { EnvVarView } from '../env-var-service';

/** The tool environment variables: names and where they come from, never values. */
export class ListEnvVarsQuery extends Query<{ readonly variables: readonly EnvVarView[] }> {}

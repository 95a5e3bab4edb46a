import { Command } from '@nestjs/cqrs';
import type { ModelView } from '@oneclaw/api-contract';
import type { ReasoningEffort } from '@oneclaw/core';

/** Sets how hard one of a provider's models is asked to think (`null`: the provider's default); answers the provider's models. */
export class SetModelReasoningCommand extends Command<readonly ModelView[]> {
  constructor(
    readonly providerId: string,
    readonly modelId: string,
    readonly effort: ReasoningEffort | null,
    readonly requestId?: string,
  ) {
    super();
  }
}

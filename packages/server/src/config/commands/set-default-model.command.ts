import { Command } from '@nestjs/cqrs';

/** Sets the model new turns use for every agent without a preferred provider; it must be listed for its provider. */
export class SetDefaultModelCommand extends Command<void> {
  constructor(
    readonly providerId: string,
    readonly modelId: string,
    readonly requestId?: string,
  ) {
    super();
  }
}

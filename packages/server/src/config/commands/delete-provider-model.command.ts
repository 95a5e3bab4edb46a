import { Command } from '@nestjs/cqrs';

/** Removes a model from a provider's list (a default model removed leaves no default). */
export class DeleteProviderModelCommand extends Command<void> {
  constructor(
    readonly providerId: string,
    readonly modelId: string,
    readonly requestId?: string,
  ) {
    super();
  }
}

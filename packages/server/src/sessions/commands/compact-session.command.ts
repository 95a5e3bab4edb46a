import { Command } from '@nestjs/cqrs';
import type { CompactAnswer } from '@oneclaw/api-contract';

/** What a compaction did: `compacted` false (with `code`) leaves the conversation as it was. */
export type CompactSessionResult = CompactAnswer;

export class CompactSessionCommand extends Command<CompactSessionResult> {
  constructor(readonly sessionId: string) {
    super();
  }
}

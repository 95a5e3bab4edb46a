import { Command } from '@nestjs/cqrs';
import type { SessionView } from '../session-view';

/** What a compaction did: `compacted` false (with `code`) leaves the conversation as it was. */
export interface CompactSessionResult {
  readonly compacted: boolean;
  readonly code?: string;
  readonly detail: string;
  readonly session: SessionView;
}

export class CompactSessionCommand extends Command<CompactSessionResult> {
  constructor(readonly sessionId: string) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { ToolTargetKind } from '@oneclaw/core';

/** Enables or disables a tool or a whole group; a disabled one is not offered from the next model request on. */
export class SetToolEnabledCommand extends Command<void> {
  constructor(
    readonly name: string,
    readonly target: ToolTargetKind,
    readonly enabled: boolean,
    readonly requestId?: string,
  ) {
    super();
  }
}

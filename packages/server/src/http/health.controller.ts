import { Controller, Get, Inject } from '@nestjs/common';
import type { EventStore } from '@oneclaw/core';
import { Public } from '../security/public.decorator';
import { EVENT_STORE } from '../tokens';

@Public()
@Controller('health')
export class HealthController {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** Says whether the store answers; never echoes configuration (it may hold secrets later). */
  @Get()
  async health(): Promise<{ status: 'ok'; store: 'ok' }> {
    await this.store.streamState('health-check');
    return { status: 'ok', store: 'ok' };
  }
}

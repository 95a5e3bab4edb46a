import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { SessionService, type SessionView } from './session.service';

interface StartSessionBody {
  readonly sessionId?: string;
  readonly agentId?: string;
}

interface UserMessageBody {
  readonly text?: unknown;
  readonly messageId?: string;
}

/**
 * Sessions over REST. `Idempotency-Key` makes a retried request record its events once (the
 * event ids derive from it). The agent loop and streaming replies come with the server issue.
 */
@Controller('api/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionService) {}

  @Post()
  async start(@Body() body: StartSessionBody = {}, @Headers('idempotency-key') key?: string): Promise<SessionView> {
    const sessionId = body.sessionId ?? (key ? derivedId('session', key) : randomUUID());
    const executed = await this.sessions.execute(sessionId, { type: 'StartSession', sessionId, agentId: body.agentId ?? 'default' }, key);
    return this.sessions.viewOf(sessionId, executed);
  }

  @Get(':id')
  get(@Param('id') id: string): Promise<SessionView> {
    return this.sessions.view(id);
  }

  @Get(':id/events')
  async events(@Param('id') id: string) {
    return { sessionId: id, events: await this.sessions.events(id) };
  }

  @Post(':id/messages')
  @HttpCode(201)
  async message(@Param('id') id: string, @Body() body: UserMessageBody = {}, @Headers('idempotency-key') key?: string): Promise<SessionView> {
    const executed = await this.sessions.execute(
      id,
      { type: 'RecordUserMessage', messageId: body.messageId ?? (key ? derivedId('message', key) : randomUUID()), text: body.text as string },
      key,
    );
    return this.sessions.viewOf(id, executed);
  }

  @Post(':id/clear')
  @HttpCode(200)
  async clear(@Param('id') id: string, @Headers('idempotency-key') key?: string): Promise<SessionView> {
    const executed = await this.sessions.execute(id, { type: 'ClearSession', reason: 'user' }, key);
    return this.sessions.viewOf(id, executed);
  }
}

/** Ids derived from the Idempotency-Key, so a retried request carries the same data as the first. */
function derivedId(kind: string, key: string): string {
  return createHash('sha256').update(`${kind}\0${key}`).digest('base64url').slice(0, 22);
}

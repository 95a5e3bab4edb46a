import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus, type ICommand } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { SESSION_EVENTS_PAGE, type SessionsAnswer } from '@oneclaw/api-contract';
import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { CancelTurnCommand } from '../sessions/commands/cancel-turn.command';
import { ClearSessionCommand } from '../sessions/commands/clear-session.command';
import { CompactSessionCommand } from '../sessions/commands/compact-session.command';
import { EditMessageCommand } from '../sessions/commands/edit-message.command';
import { RetryTurnCommand } from '../sessions/commands/retry-turn.command';
import { LoadToolGroupCommand } from '../sessions/commands/load-tool-group.command';
import { SendMessageCommand } from '../sessions/commands/send-message.command';
import { StartSessionCommand } from '../sessions/commands/start-session.command';
import { UnloadToolGroupCommand } from '../sessions/commands/unload-tool-group.command';
import { RenameSessionCommand } from '../sessions/commands/rename-session.command';
import { ArchiveSessionCommand } from '../sessions/commands/archive-session.command';
import { GetActiveToolsQuery } from '../sessions/queries/get-active-tools.query';
import { GetAuditTrailQuery } from '../sessions/queries/get-audit-trail.query';
import { GetSessionEventsQuery } from '../sessions/queries/get-session-events.query';
import { GetSessionQuery } from '../sessions/queries/get-session.query';
import { ListSessionsQuery } from '../sessions/queries/list-sessions.query';
import { DEFAULT_AGENT_ID } from '../agents/agent-directory';
import { formatAuditTrail } from '../audit/format-audit-trail';
import type { Logger } from '../logging/logger';
import type { TurnObserver } from '../turns/turn-observer';
import { LOGGER } from '../tokens';
import {
  emptyBody,
  loadToolGroupBody,
  sendMessageBody,
  startSessionBody,
  renameSessionBody,
  type RenameSessionBody,
  type LoadToolGroupBody,
  type SendMessageBody,
  type StartSessionBody,
} from './body-schemas';
import { clientGoneSignal } from './client-gone';
import { eventsPageOf } from './events-page';
import { IdempotencyKey } from './idempotency-key';
import { revisionFromIfMatch } from './if-match';
import { editMessageBody, retryTurnBody, type EditMessageBody, type RetryTurnBody } from './redo-body-schemas';
import { respondWithTurn, wantsSessionView } from './turn-response';
import { ValidateBody } from './validate-body.pipe';

const idempotencyHeader = { name: 'Idempotency-Key', required: false, description: 'Retrying with the same key records the command once.' };
const includeQuery = { name: 'include', required: false, description: "'session': the JSON answer also carries the whole session view (not sent otherwise)." };
const ifMatchHeader = { name: 'If-Match', required: false, description: 'The session revision you read; a stale one answers 412.' };

/** Sessions over REST; SendMessage streams its turn over SSE when asked for text/event-stream. */
@ApiTags('sessions')
@ApiBearerAuth()
@Controller('api/sessions')
export class SessionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post()
  @ApiOperation({ summary: 'StartSession' })
  @ApiBody({ schema: startSessionBody })
  @ApiHeader(idempotencyHeader)
  start(@Body(new ValidateBody<StartSessionBody>(startSessionBody)) body: StartSessionBody, @IdempotencyKey() key?: string) {
    const sessionId = body.sessionId ?? (key ? derivedId('session', key) : randomUUID());
    return this.commands.execute(new StartSessionCommand(sessionId, body.agentId ?? DEFAULT_AGENT_ID, key));
  }

  @Get()
  @ApiOperation({ summary: 'ListSessions: newest activity first, without deleted ones; q= keeps those whose title or message text holds each word (any case)' })
  async list(@Query('q') q: unknown, @Res({ passthrough: true }) res: ServerResponse): Promise<SessionsAnswer> {
    // ?q=a&q=b arrives as an array: one search box sends one q.
    const query = typeof q === 'string' ? q : Array.isArray(q) ? q.join(' ') : '';
    const gone = clientGoneSignal(res);
    try {
      return { sessions: await this.queries.execute(new ListSessionsQuery(query, gone)) };
    } catch (error) {
      // The client went away (a search box aborts the request of each earlier keystroke): there
      // is no one to answer, and nothing failed, so nothing is logged.
      if (gone.aborted && error === gone.reason) return { sessions: [] };
      throw error;
    }
  }

  @Get(':id')
  @ApiOperation({ summary: 'GetSession: conversation, loaded groups, active tools, revision' })
  get(@Param('id') id: string) {
    return this.queries.execute(new GetSessionQuery(id));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'RenameSession: names the session in the list (SessionRenamed); 1 to 120 characters' })
  @ApiBody({ schema: renameSessionBody })
  @ApiHeader(idempotencyHeader)
  @ApiHeader(ifMatchHeader)
  rename(
    @Param('id') id: string,
    @Body(new ValidateBody<RenameSessionBody>(renameSessionBody)) body: RenameSessionBody,
    @IdempotencyKey() key?: string,
    @Headers('if-match') ifMatch?: string,
  ) {
    return this.commands.execute(new RenameSessionCommand(id, body.title, key, revisionFromIfMatch(ifMatch)));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'DeleteSession: archives it (SessionArchived): gone from the list, refuses new messages (410 session_archived); the stream and its audit stay',
  })
  @ApiHeader(idempotencyHeader)
  async remove(@Param('id') id: string, @Body(new ValidateBody(emptyBody)) _body: unknown, @IdempotencyKey() key?: string) {
    await this.commands.execute(new ArchiveSessionCommand(id, key));
  }

  @Get(':id/events')
  @ApiOperation({ summary: 'GetSessionEvents: one page of the raw event stream; nextRevision is the fromRevision of the next page (null at the end)' })
  @ApiQuery({ name: 'fromRevision', required: false, description: 'First revision to return (default 0).' })
  @ApiQuery({ name: 'limit', required: false, description: `Events per page, 1 to ${SESSION_EVENTS_PAGE.maxLimit} (default ${SESSION_EVENTS_PAGE.defaultLimit}).` })
  events(@Param('id') id: string, @Query('fromRevision') fromRevision: unknown, @Query('limit') limit: unknown) {
    const page = eventsPageOf(fromRevision, limit);
    return this.queries.execute(new GetSessionEventsQuery(id, page.fromRevision, page.limit));
  }

  @Get(':id/tools')
  @ApiOperation({ summary: 'GetActiveTools: what the model is sent now' })
  activeTools(@Param('id') id: string) {
    return this.queries.execute(new GetActiveToolsQuery(id));
  }

  @Get(':id/audit')
  @ApiOperation({ summary: 'GetAuditTrail: events, and per model request the tools sent and why (format=text for the CLI text)' })
  async audit(@Param('id') id: string, @Query('format') format: string | undefined, @Res({ passthrough: true }) res: ServerResponse) {
    const trail = await this.queries.execute(new GetAuditTrailQuery(id));
    if (format !== 'text') return trail;
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    return formatAuditTrail(trail);
  }

  @Post(':id/messages')
  @ApiOperation({ summary: 'SendMessage: runs a turn; with Accept: text/event-stream the turn streams as SSE' })
  @ApiBody({ schema: sendMessageBody })
  @ApiHeader(idempotencyHeader)
  @ApiQuery(includeQuery)
  message(
    @Param('id') id: string,
    @Body(new ValidateBody<SendMessageBody>(sendMessageBody)) body: SendMessageBody,
    @IdempotencyKey() key: string | undefined,
    @Headers('accept') accept: string | undefined,
    @Query('include') include: unknown,
    @Res() res: ServerResponse,
  ): Promise<void> {
    return this.runTurn(id, key, accept, include, res, (requestId, observer, signal) => new SendMessageCommand(id, body.text ?? '', requestId, observer, signal, body.attachments));
  }

  @Post(':id/retry')
  @ApiOperation({
    summary: 'RetryTurn: runs the last turn again for the last user message (after an error, or for another answer); streams like SendMessage',
    description:
      'Records TurnRetried: the replies after the last user message are superseded (kept in the stream and the view, no longer sent to the model). Body {messageId?}: the user message you mean to retry; 409 not_last_user_message when it is no longer the last, nothing_to_retry when there is none, turn_in_progress while a turn runs.',
  })
  @ApiBody({ schema: retryTurnBody })
  @ApiHeader(idempotencyHeader)
  @ApiQuery(includeQuery)
  retry(
    @Param('id') id: string,
    @Body(new ValidateBody<RetryTurnBody>(retryTurnBody)) body: RetryTurnBody,
    @IdempotencyKey() key: string | undefined,
    @Headers('accept') accept: string | undefined,
    @Query('include') include: unknown,
    @Res() res: ServerResponse,
  ): Promise<void> {
    return this.runTurn(id, key, accept, include, res, (requestId, observer, signal) => new RetryTurnCommand(id, body.messageId, requestId, observer, signal));
  }

  @Post(':id/messages/:messageId/edit')
  @ApiOperation({
    summary: 'EditLastUserMessage: replaces the last user message with new text and runs its turn; streams like SendMessage',
    description:
      'Records UserMessageEdited (the message and everything after it are superseded: kept in the stream and the view, no longer sent to the model) and the new user message. 409 not_last_user_message when :messageId is not the last user message, nothing_to_edit, turn_in_progress.',
  })
  @ApiBody({ schema: editMessageBody })
  @ApiHeader(idempotencyHeader)
  @ApiQuery(includeQuery)
  edit(
    @Param('id') id: string,
    @Param('messageId') messageId: string,
    @Body(new ValidateBody<EditMessageBody>(editMessageBody)) body: EditMessageBody,
    @IdempotencyKey() key: string | undefined,
    @Headers('accept') accept: string | undefined,
    @Query('include') include: unknown,
    @Res() res: ServerResponse,
  ): Promise<void> {
    return this.runTurn(id, key, accept, include, res, (requestId, observer, signal) => new EditMessageCommand(id, messageId, body.text, requestId, observer, signal));
  }

  @Post(':id/clear')
  @HttpCode(200)
  @ApiOperation({ summary: 'ClearSession: empties the conversation and loaded groups (history stays in the stream); 409 turn_in_progress while a turn runs' })
  @ApiHeader(idempotencyHeader)
  @ApiHeader(ifMatchHeader)
  clear(@Param('id') id: string, @Body(new ValidateBody(emptyBody)) _body: unknown, @IdempotencyKey() key?: string, @Headers('if-match') ifMatch?: string) {
    return this.commands.execute(new ClearSessionCommand(id, key, revisionFromIfMatch(ifMatch)));
  }

  @Post(':id/compact')
  @HttpCode(200)
  @ApiOperation({
    summary: 'CompactSession: replaces the early conversation with a model-written summary (loaded groups stay; history stays in the stream)',
    description:
      'Same as sending /compact. Answers {compacted, code?, detail, session}; a failed summary is recorded (CompactionFailed) and answered with compacted: false, the conversation unchanged. 409 turn_in_progress while a turn runs.',
  })
  compact(@Param('id') id: string, @Body(new ValidateBody(emptyBody)) _body: unknown) {
    return this.commands.execute(new CompactSessionCommand(id));
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'CancelTurn: stops the running turn; it records TurnFinished(cancelled)' })
  cancel(@Param('id') id: string, @Body(new ValidateBody(emptyBody)) _body: unknown) {
    return this.commands.execute(new CancelTurnCommand(id));
  }

  @Post(':id/tool-groups')
  @HttpCode(200)
  @ApiOperation({ summary: 'LoadToolGroup (by the user)' })
  @ApiBody({ schema: loadToolGroupBody })
  @ApiHeader(idempotencyHeader)
  @ApiHeader(ifMatchHeader)
  loadGroup(
    @Param('id') id: string,
    @Body(new ValidateBody<LoadToolGroupBody>(loadToolGroupBody)) body: LoadToolGroupBody,
    @IdempotencyKey() key?: string,
    @Headers('if-match') ifMatch?: string,
  ) {
    return this.commands.execute(new LoadToolGroupCommand(id, body.groupName, key, revisionFromIfMatch(ifMatch)));
  }

  @Delete(':id/tool-groups/:groupName')
  @ApiOperation({ summary: 'UnloadToolGroup' })
  @ApiHeader(idempotencyHeader)
  @ApiHeader(ifMatchHeader)
  unloadGroup(@Param('id') id: string, @Param('groupName') groupName: string, @IdempotencyKey() key?: string, @Headers('if-match') ifMatch?: string) {
    return this.commands.execute(new UnloadToolGroupCommand(id, groupName, key, revisionFromIfMatch(ifMatch)));
  }

  /**
   * Runs a command that runs a turn (send, retry, edit) and answers as SendMessage does: SSE
   * when asked, JSON otherwise, with the whole session view only when `include=session`.
   */
  private runTurn(
    id: string,
    key: string | undefined,
    accept: string | undefined,
    include: unknown,
    res: ServerResponse,
    command: (requestId: string | undefined, observer: TurnObserver | undefined, signal: AbortSignal) => ICommand,
  ): Promise<void> {
    const requestId = key ? derivedId('turn', key) : undefined;
    return respondWithTurn({
      res,
      accept,
      logger: this.logger,
      run: (observer, signal) => this.commands.execute(command(requestId, observer, signal)),
      ...(wantsSessionView(include) ? { session: () => this.queries.execute(new GetSessionQuery(id)) } : {}),
    });
  }
}

/** Ids derived from the Idempotency-Key, so a retried request carries the same data as the first. */
function derivedId(kind: string, key: string): string {
  return createHash('sha256').update(`${kind}\0${key}`).digest('base64url').slice(0, 22);
}

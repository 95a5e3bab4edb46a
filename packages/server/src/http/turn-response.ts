import type { SessionView, TurnAnswer, TurnResult } from '@oneclaw/api-contract';
import type { ServerResponse } from 'node:http';
import type { Logger } from '../logging/logger';
import type { TurnObserver } from '../turns/turn-observer';
import { clientGoneSignal } from './client-gone';
import { logServerFault, toProblem } from './problem-details.filter';
import { SseWriter } from './sse-writer';

export interface TurnResponse {
  readonly res: ServerResponse;
  readonly accept: string | undefined;
  readonly logger: Logger;
  /** Runs the turn; `observer` is set when the client asked for text/event-stream. */
  readonly run: (observer: TurnObserver | undefined, signal: AbortSignal) => Promise<TurnResult>;
  /** The session view, sent with a JSON answer only when the client asked (`?include=session`). */
  readonly session?: () => Promise<SessionView>;
}

/** `?include=session`: the JSON answer carries the whole session view (docs/api.md). */
export function wantsSessionView(include: unknown): boolean {
  return typeof include === 'string' && include.split(',').some((part) => part.trim() === 'session');
}

/**
 * Answers every command that runs a turn (SendMessage, retry, edit) the same way: JSON, the turn's
 * result (and the session view when `session` is given), or with Accept: text/event-stream the
 * turn's updates as SSE, then `done` (or `error`). Errors before the first event keep their HTTP
 * status; a client that goes away cancels its turn (API-18).
 */
export async function respondWithTurn({ res, accept, logger, run, session }: TurnResponse): Promise<void> {
  const gone = clientGoneSignal(res);
  if (!accept?.includes('text/event-stream')) {
    const result = await run(undefined, gone);
    // The view is opt-in: it re-reads the session and grows with it (F5: 19 KB after 20 turns).
    const answer: TurnAnswer = session ? { ...result, session: await session() } : result;
    const body = JSON.stringify(answer);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(body);
    return;
  }
  const sse = new SseWriter(res);
  try {
    const result = await run((update) => sse.send(update.type, update), gone);
    sse.send('done', result);
  } catch (error) {
    if (!sse.isOpen) throw error; // nothing streamed yet: answer with the error's status
    const problem = toProblem(error);
    logServerFault(logger, error, problem);
    sse.send('error', problem);
  } finally {
    if (sse.isOpen) sse.end();
  }
}

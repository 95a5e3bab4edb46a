import type { ServerResponse } from 'node:http';

/**
 * A signal aborted when the client goes away before its answer is finished (a closed tab, a
 * search box's earlier keystroke whose request the browser aborted), so the work for it stops.
 */
export function clientGoneSignal(res: ServerResponse): AbortSignal {
  const gone = new AbortController();
  const abort = () => gone.abort(new DOMException('the client disconnected', 'AbortError'));
  // Gone before the handler ran (while guards and pipes did): 'close' has fired already.
  if (res.destroyed && !res.writableFinished) abort();
  res.on('close', () => {
    if (!res.writableFinished) abort();
  });
  return gone.signal;
}

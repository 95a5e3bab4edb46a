import { existsSync } from 'node:fs';
import path from 'node:path';
import { OneClawError } from '@oneclaw/core';
import { toProblem } from './problem-details.filter';

/** The parts of Express's request and response this middleware uses (keeps @types/express out of the build). */
interface RequestLike {
  readonly method: string;
  readonly path: string;
}

interface ResponseLike {
  status(code: number): { type(contentType: string): { send(body: string): unknown } };
}

/**
 * Answers `GET /` with a problem that says how to get the UI when the web UI folder has no
 * index.html (a server started from a checkout before `pnpm build`), instead of the API's
 * "no such route". Checked on each request: building the UI while the server runs needs no
 * restart. Runs after the static files, so it only sees `/` when there is nothing to serve; every
 * other path, /api included, passes through.
 */
export function webUiNotBuilt(webDir: string): (req: RequestLike, res: ResponseLike, next: () => void) => void {
  const index = path.join(webDir, 'index.html');
  return (req, res, next) => {
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && (req.path === '/' || req.path === '/index.html');
    if (!isPage || existsSync(index)) {
      next();
      return;
    }
    // The folder's path stays out of the answer: this route is public.
    const problem = toProblem(
      new OneClawError(
        'web_ui_not_built',
        'The web UI is not built: its folder has no index.html. Run `pnpm build` in the repository (it builds apps/web into the server\u2019s static folder) and reload, or set ONECLAW_WEB_DIR to a folder that holds a built UI. The API under /api works without it.',
      ),
    );
    res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
  };
}

import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC_KEY = 'oneclaw:public';

/**
 * Marks a route (or a whole controller) as reachable without the API token. The auth guard is
 * deny-by-default, so every exception is this visible marker at the route; keep the list short
 * (health checks, the static web UI) and snapshot it in an e2e test (API-06).
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_KEY, true);

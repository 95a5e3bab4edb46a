import type { NestExpressApplication } from '@nestjs/platform-express';
import { ProblemDetailsFilter } from './http/problem-details.filter';
import type { ServerConfig } from './server-config';

/** Everything main.ts does to the app besides listening; the e2e tests call it too. */
export function configureApp(app: NestExpressApplication, config: ServerConfig): NestExpressApplication {
  app.useBodyParser('json', { limit: config.bodyLimitBytes });
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.enableShutdownHooks();
  app.disable('x-powered-by');
  return app;
}

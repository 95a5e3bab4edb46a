import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { AppOptions } from './app.module';
import { ProblemDetailsFilter } from './http/problem-details.filter';
import { bodyParserErrors, JSON_MEDIA_TYPES, requireJsonBody, requireSupportedBodyEncoding } from './http/request-body-encoding';
import { webUiCacheControl } from './http/web-ui-cache-control';
import { webUiCompression } from './http/web-ui-compression';
import { webUiNotBuilt } from './http/web-ui-not-built';
import { SecretRedactor } from './security/secret-redactor';
import { securityHeaders } from './security/security-headers';

/**
 * The signals that stop the server gracefully (turns cancelled and recorded, the store closed).
 * Not Nest's default list, which also stops on SIGUSR2: that signal is the one node's
 * `--heapsnapshot-signal=SIGUSR2` uses (docs/memory.md), so a heap snapshot taken on demand would
 * end the server it was meant to diagnose.
 */
export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT'] as const;

/** Everything main.ts does to the app besides listening; the e2e tests call it through createApp. */
export function configureApp(app: NestExpressApplication, options: Pick<AppOptions, 'config' | 'logger'>): NestExpressApplication {
  const { config } = options;
  // Helmet first: it must run before anything else that answers (API-10), 404s and errors included.
  app.use(securityHeaders());
  app.disable('x-powered-by');
  if (config.trustProxy) app.set('trust proxy', true);
  // Same-origin by default (the web UI is served by this server); other origins only when listed (API-11).
  app.enableCors({ origin: config.corsOrigins.length > 0 ? [...config.corsOrigins] : false, credentials: false });
  // A body body-parser would refuse or fail on (charset, Content-Encoding, size) leaves as a typed
  // 4xx: checked before it reads, translated after (docs/api.md, "Request bodies").
  // Every /api body is JSON except the attachment upload's, which is the file's bytes.
  app.use(requireJsonBody(['POST /api/attachments']));
  app.use(requireSupportedBodyEncoding());
  app.useBodyParser('json', { limit: config.bodyLimitBytes, type: [...JSON_MEDIA_TYPES] });
  app.use(bodyParserErrors());
  // Before the static files so they go out compressed; it leaves /api (and so the SSE stream) alone.
  app.use(webUiCompression());
  // The web UI (apps/web, built into config.webDir). Public like /health: its files hold no data,
  // and it asks for the token itself. Hashed assets never change; index.html is always rechecked.
  app.useStaticAssets(config.webDir, {
    index: 'index.html',
    setHeaders: (res, file) => res.setHeader('Cache-Control', webUiCacheControl(config.webDir, file)),
  });
  // No built UI: `/` says how to build it rather than answering as an unknown API route.
  app.use(webUiNotBuilt(config.webDir));
  // The redactor from Nest's container: the same instance the config services teach new keys to.
  app.useGlobalFilters(new ProblemDetailsFilter(options.logger, app.get(SecretRedactor)));
  app.enableShutdownHooks([...SHUTDOWN_SIGNALS]);

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('OneClaw API')
      .setDescription('Sessions, turns (SSE), tool groups and audit. Errors are application/problem+json with a stable `code`.')
      .setVersion('0.1.0')
      .addBearerAuth()
      .build(),
  );
  // Served without auth: it describes the API and holds no data (docs/api.md).
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs/openapi.json' });

  // Slow clients cannot hold a request open forever (API-16); a streamed reply is not limited by these.
  const server = app.getHttpServer() as import('node:http').Server;
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  return app;
}

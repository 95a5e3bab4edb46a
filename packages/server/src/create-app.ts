import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, type AppOptions } from './app.module';
import { configureApp } from './configure-app';
import { NestPinoLogger } from './logging/nest-pino-logger';

/** Builds the app exactly as main.ts runs it (bodyParser off here: configureApp sets its limit). */
export async function createApp(options: AppOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(options), {
    bodyParser: false,
    // Let start-up errors (a corrupt store, say) reach the caller with their code, not exit here.
    abortOnError: false,
    logger: new NestPinoLogger(options.logger),
  });
  return configureApp(app, options);
}

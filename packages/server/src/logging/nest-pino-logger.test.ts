import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Injectable, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { REDACTED, SecretRedactor } from '../security/secret-redactor';
import { CapturedLines } from './capture-lines';
import { createLogger } from './logger';
import { NestPinoLogger } from './nest-pino-logger';

const SECRET = 'sk-ant-secret-123456';

function setUp(level = 'trace') {
  const out = new CapturedLines();
  const pino = createLogger({ level, redactor: new SecretRedactor([SECRET]), destination: out });
  return { out, pino, nest: new NestPinoLogger(pino) };
}

describe('NestPinoLogger', () => {
  it('maps every Nest level and keeps the context name', () => {
    const { out, nest } = setUp();
    nest.verbose('v', 'Ctx');
    nest.debug('d', 'Ctx');
    nest.log('l', 'Ctx');
    nest.warn('w', 'Ctx');
    nest.error('e', undefined, 'Ctx');
    nest.fatal('f', 'Ctx');
    expect(out.records().map((r) => [r.level, r.msg, r.context])).toEqual([
      [10, 'v', 'Ctx'],
      [20, 'd', 'Ctx'],
      [30, 'l', 'Ctx'],
      [40, 'w', 'Ctx'],
      [50, 'e', 'Ctx'],
      [60, 'f', 'Ctx'],
    ]);
  });

  it('reads error(message, stack, context) and error(message, stack) as Nest does', () => {
    const { out, nest } = setUp();
    const stack = new Error('x').stack ?? '';
    nest.error('failed', stack, 'ExceptionsHandler');
    nest.error('failed again', stack);
    const [first, second] = out.records();
    expect(first).toMatchObject({ msg: 'failed', context: 'ExceptionsHandler', stack });
    expect(second).toMatchObject({ msg: 'failed again', stack });
    expect(second?.context).toBeUndefined();
  });

  it('SEC-03 scrubs secrets from messages, stacks and Error objects', () => {
    const { out, nest } = setUp();
    const error = new Error(`provider rejected ${SECRET}`);
    nest.error(`request failed: key=${SECRET}`, error.stack, 'http');
    nest.error(error);
    nest.log({ apiKey: 'unknown-key', note: `k=${SECRET}` }, 'Cfg');
    expect(out.text()).not.toContain(SECRET);
    expect(out.text()).not.toContain('unknown-key');
    expect(out.records()[1]?.msg).toBe(`provider rejected ${REDACTED}`);
    expect(out.records()[2]).toMatchObject({ context: 'Cfg', data: { apiKey: REDACTED, note: `k=${REDACTED}` } });
  });

  it('is silent at level silent and follows setLogLevels', () => {
    const silent = setUp('silent');
    silent.nest.error('e', undefined, 'Ctx');
    silent.nest.fatal('f');
    expect(silent.out.lines).toHaveLength(0);

    const { out, nest } = setUp('info');
    nest.setLogLevels(['warn', 'error']);
    nest.log('hidden');
    nest.warn('shown');
    nest.setLogLevels([]);
    nest.fatal('hidden too');
    expect(out.records().map((r) => r.msg)).toEqual(['shown']);
  });

  it('works as the logger of a Nest application, keeping Logger contexts', async () => {
    const { out, nest } = setUp('info');
    @Injectable()
    class Greeter implements OnModuleInit {
      private readonly logger = new Logger(Greeter.name);
      onModuleInit(): void {
        this.logger.log(`hello with ${SECRET}`);
      }
    }
    @Module({ providers: [Greeter] })
    class TinyModule {}

    const app = await NestFactory.create(TinyModule, { logger: nest, abortOnError: false });
    await app.init();
    await app.close();
    const greeting = out.records().find((r) => r.context === 'Greeter');
    expect(greeting?.msg).toBe(`hello with ${REDACTED}`);
    expect(out.records().some((r) => r.context === 'NestFactory')).toBe(true);
  });
});

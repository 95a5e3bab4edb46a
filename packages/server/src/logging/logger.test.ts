import { describe, expect, it } from '@jest/globals';
import { REDACTED, SecretRedactor } from '../security/secret-redactor';
import { CapturedLines } from './capture-lines';
import { createLogger } from './logger';

const API_KEY = 'sk-live-9f8e7d6c5b4a3210';
const ENV_VALUE = 'ghp_envsecretvalue123';

function setUp(level = 'debug') {
  const redactor = new SecretRedactor([API_KEY, ENV_VALUE]);
  const out = new CapturedLines();
  const logger = createLogger({ level, redactor, destination: out });
  return { redactor, out, logger };
}

describe('createLogger (SEC-02/SEC-03)', () => {
  it('SEC-03 scrubs secrets from message strings and format arguments', () => {
    const { out, logger } = setUp();
    logger.info(`calling https://api.example/v1?key=${API_KEY}`);
    logger.warn('retrying %s with %o', `key ${API_KEY}`, { url: `u?k=${ENV_VALUE}` });
    expect(out.lines).toHaveLength(2);
    expect(out.text()).not.toContain(API_KEY);
    expect(out.text()).not.toContain(ENV_VALUE);
    expect(out.records()[0]?.msg).toBe(`calling https://api.example/v1?key=${REDACTED}`);
  });

  it('SEC-02 redacts sensitive keys and authorization headers even for values it does not know', () => {
    const { out, logger } = setUp();
    logger.info(
      {
        req: { method: 'GET', headers: { authorization: 'Bearer unknown-token-1', accept: 'text/html' } },
        headers: { authorization: 'Bearer unknown-token-2' },
        provider: { apiKey: 'unknown-key', model: 'm' },
        auth: { token: 'tok-1', accessToken: 'at', refreshToken: 'rt', password: 'pw' },
        deep: { deeper: { deepest: { apiKey: 'nested-unknown-key' } } },
        maxTokens: 1024,
      },
      'request',
    );
    const record = out.records()[0] as Record<string, any>;
    expect(record.req.headers).toEqual({ authorization: REDACTED, accept: 'text/html' });
    expect(record.headers.authorization).toBe(REDACTED);
    expect(record.provider).toEqual({ apiKey: REDACTED, model: 'm' });
    expect(record.auth).toEqual({ token: REDACTED, accessToken: REDACTED, refreshToken: REDACTED, password: REDACTED });
    expect(record.deep.deeper.deepest.apiKey).toBe(REDACTED);
    expect(record.maxTokens).toBe(1024);
    expect(out.text()).not.toMatch(/unknown-token|unknown-key|tok-1/);
  });

  it('SEC-02 hides a nested _env subtree and keeps the names', () => {
    const { out, logger } = setUp();
    logger.info({ tool: { name: 'gmail_send', args: { to: 'a@b.c', _env: { GMAIL_TOKEN: ENV_VALUE, OTHER: 'short' } } } }, 'tool call');
    const record = out.records()[0] as Record<string, any>;
    expect(record.tool.args._env).toEqual({ GMAIL_TOKEN: REDACTED, OTHER: REDACTED });
    expect(record.tool.args.to).toBe('a@b.c');
    expect(out.text()).not.toContain(ENV_VALUE);
    expect(out.text()).not.toContain('short');
  });

  it('SEC-03 scrubs errors with the secret in message, stack and cause', () => {
    const { out, logger } = setUp();
    const error = new Error(`provider said: bad key ${API_KEY}`, { cause: new Error(`env ${ENV_VALUE}`) });
    logger.error(error);
    logger.error({ err: error }, 'turn failed');
    logger.error({ error }, 'non-standard key');
    expect(out.lines).toHaveLength(3);
    expect(out.text()).not.toContain(API_KEY);
    expect(out.text()).not.toContain(ENV_VALUE);
    const [first, second] = out.records() as Array<Record<string, any>>;
    expect(first?.msg).toBe(`provider said: bad key ${REDACTED}`);
    expect(first?.err.type).toBe('Error');
    expect(first?.err.stack).toContain(`bad key ${REDACTED}`);
    expect(second?.err.message).toContain(`provider said: bad key ${REDACTED}`);
    // The caller's error is untouched: it may still be rethrown or inspected.
    expect(error.message).toContain(API_KEY);
  });

  it('SEC-02 scrubs child bindings and secrets added after the logger was built', () => {
    const { out, logger, redactor } = setUp();
    const generated = 'generated-api-token-xyz';
    redactor.add(generated);
    logger.child({ session: 's1', token: 'child-token', note: `t=${generated}` }).info(`uses ${generated}`);
    expect(out.text()).not.toContain(generated);
    expect(out.text()).not.toContain('child-token');
    expect(out.records()[0]?.session).toBe('s1');
  });

  it('writes nothing at level silent', () => {
    const { out, logger } = setUp('silent');
    logger.fatal('boom');
    logger.error(new Error('x'));
    expect(out.lines).toHaveLength(0);
  });
});

import { describe, expect, it } from '@jest/globals';
import { ExpiringSecrets } from './expiring-secrets';
import { REDACTED, SecretRedactor } from './secret-redactor';

const HOUR = 3_600_000;

describe('ExpiringSecrets (access tokens learnt while the server runs)', () => {
  it('redacts a token from when it arrives, and forgets it once it has expired and another arrives', () => {
    let now = 1_000_000;
    const redactor = new SecretRedactor();
    const tokens = new ExpiringSecrets(redactor, () => now);
    tokens.add('ya29.first-token', now + HOUR);
    expect(redactor.redactText('t=ya29.first-token')).toBe(`t=${REDACTED}`);
    now += HOUR - 60_000; // refreshed a minute before the first expires: both still work
    tokens.add('ya29.second-token', now + HOUR);
    expect(redactor.redactText('ya29.first-token ya29.second-token')).toBe(`${REDACTED} ${REDACTED}`);
    now += HOUR - 60_000;
    tokens.add('ya29.third-token', now + HOUR);
    expect(redactor.redactText('ya29.first-token ya29.second-token ya29.third-token')).toBe(`ya29.first-token ${REDACTED} ${REDACTED}`);
    expect(redactor.size).toBe(2);
  });

  it('a day of hourly refreshes keeps the redactor at the tokens that still work', () => {
    let now = 0;
    const redactor = new SecretRedactor();
    const tokens = new ExpiringSecrets(redactor, () => now);
    for (let hour = 0; hour < 24; hour++, now += HOUR - 60_000) tokens.add(`ya29.token-of-hour-${hour}`, now + HOUR);
    expect(redactor.size).toBe(2);
  });

  it('never takes out a secret the redactor knew before (a configured one), nor one issued without an expiry', () => {
    let now = 0;
    const redactor = new SecretRedactor(['ya29.configured-token']);
    const tokens = new ExpiringSecrets(redactor, () => now);
    tokens.add('ya29.configured-token', now + HOUR);
    tokens.add('ya29.static-token', undefined);
    now += 10 * HOUR;
    tokens.add('ya29.later-token', now + HOUR);
    expect(redactor.redactText('ya29.configured-token ya29.static-token')).toBe(`${REDACTED} ${REDACTED}`);
  });

  it('a token issued again lives as long as its latest issue', () => {
    let now = 0;
    const redactor = new SecretRedactor();
    const tokens = new ExpiringSecrets(redactor, () => now);
    tokens.add('ya29.same-token', HOUR);
    tokens.add('ya29.same-token', 2 * HOUR);
    now = HOUR + 1;
    tokens.add('ya29.other-token', now + HOUR);
    expect(redactor.redactText('ya29.same-token')).toBe(REDACTED);
  });
});

import { describe, expect, it } from '@jest/globals';
import { loadServerConfig } from '../server-config';

describe('ONECLAW_TIMEZONE', () => {
  it('defaults to the system zone', () => {
    expect(loadServerConfig({}).timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('takes an IANA name, in its canonical spelling', () => {
    expect(loadServerConfig({ ONECLAW_TIMEZONE: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
    expect(loadServerConfig({ ONECLAW_TIMEZONE: ' america/new_york ' }).timeZone).toBe('America/New_York');
  });

  it('refuses an unknown zone with a ConfigError naming the variable', () => {
    expect(() => loadServerConfig({ ONECLAW_TIMEZONE: 'Mars/Olympus' })).toThrow(
      expect.objectContaining({ code: 'invalid_config', message: expect.stringContaining('ONECLAW_TIMEZONE=Mars/Olympus is not valid: use an IANA time zone name') }),
    );
  });
});

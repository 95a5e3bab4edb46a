import { describe, expect, it } from '@jest/globals';
import { browserView } from './browser-tool';
import { DESKTOP_CHROME_USER_AGENT, MOBILE_CHROME_USER_AGENT } from './user-agents';

describe('browserView (parameters of a browser call)', () => {
  it('defaults to a phone: 412x915, 2 s wait, mobile emulation with a mobile User-Agent, no notes', () => {
    expect(browserView({ url: 'https://example.com/', mode: 'screenshot' })).toEqual({
      width: 412,
      height: 915,
      waitMs: 2000,
      mobile: true,
      userAgent: MOBILE_CHROME_USER_AGENT,
      notes: [],
    });
  });

  it('treats viewports wider than 800 px as a desktop browser', () => {
    expect(browserView({ url: 'https://example.com/', mode: 'extract', width: 1280, height: 800 })).toMatchObject({ mobile: false, userAgent: DESKTOP_CHROME_USER_AGENT });
    expect(browserView({ url: 'https://example.com/', mode: 'extract', width: 800 })).toMatchObject({ mobile: true });
  });

  it('clamps wait_seconds to 0..30 and keeps fractions', () => {
    expect(browserView({ url: 'https://example.com/', mode: 'extract', wait_seconds: 99 })).toMatchObject({ waitMs: 30_000, notes: ['wait_seconds 99 is outside 0-30; used 30.'] });
    expect(browserView({ url: 'https://example.com/', mode: 'extract', wait_seconds: 0.25 })).toMatchObject({ waitMs: 250, notes: [] });
  });
});

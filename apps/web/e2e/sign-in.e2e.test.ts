import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { API_TOKEN, CHROMIUM_SKIP_REASON, chromiumAvailable, PHONE, startUiHarness, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(60_000);

describeUi(chromiumAvailable ? 'S6 sign-in (real server, fake model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUiHarness();
  });
  afterAll(async () => {
    await ui?.close();
  });

  test('the server serves the UI at / with its security headers, and the UI asks for the token', async () => {
    const response = await fetch(`${ui.server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const { page, errors } = await ui.open({ signedIn: false });
    await page.getByRole('heading', { name: 'Connect to OneClaw' }).waitFor();
    expect(errors).toEqual([]);
  });

  test('a wrong token is refused with a message saying where the token is; the right one signs in and survives a reload', async () => {
    const { page, errors } = await ui.open({ signedIn: false, device: PHONE });
    await page.getByLabel('API token').fill('wrong-token-0123456789');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('api-token');
    await page.getByLabel('API token').fill(API_TOKEN);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
  });

  test('the link the server prints (/#token=...) signs in and the token leaves the address bar', async () => {
    const { page } = await ui.open({ hash: '#/settings/tools' });
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/settings/tools');
  });
});

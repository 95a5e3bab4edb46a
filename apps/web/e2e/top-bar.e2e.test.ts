import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, PHONE, startUiHarness, waitForCount, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(90_000);

describeUi(chromiumAvailable ? 'The top bar on a phone (real server, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUiHarness();
  });
  afterAll(async () => {
    await ui?.close();
  });

  test('at 390 x 844 its icon buttons are named inline SVGs, not font glyphs; Sign out asks in a dialog: Cancel keeps you signed in, confirming signs out', async () => {
    const { page, errors } = await ui.open({ device: PHONE });
    const topBar = page.getByRole('banner');
    const menu = topBar.getByRole('button', { name: 'Sessions' });
    const signOut = topBar.getByRole('button', { name: 'Sign out' });
    await menu.waitFor();
    await signOut.waitFor();

    // Every button in the bar shows an SVG, and no text a missing font would turn into a box.
    const buttons = topBar.getByRole('button');
    await waitForCount(buttons, 2);
    for (const button of await buttons.all()) {
      await button.locator('svg').first().waitFor({ state: 'visible' });
      expect(await button.evaluate((el) => (el as HTMLElement).innerText.trim())).toBe('');
    }
    // Nothing in the bar is outside ASCII (the glyphs were ⏻ and ☰).
    expect(await topBar.evaluate((el) => /[^\x00-\x7f]/.test(el.textContent ?? ''))).toBe(false);

    // Cancel: the question goes away and the user is still signed in.
    page.on('dialog', (dialog) => void dialog.dismiss()); // window.confirm would land here, and be refused
    await signOut.click();
    const dialog = page.getByRole('dialog', { name: 'Sign out?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => Object.keys(localStorage).length)).toBeGreaterThan(0);

    // Escape cancels too, as a dialog should.
    await signOut.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Confirm: the token is forgotten and the sign-in screen asks for it.
    await signOut.click();
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API token').waitFor();
    await waitForCount(page.getByRole('button', { name: 'Sign out' }), 0);
    expect(errors).toEqual([]);
  });
});

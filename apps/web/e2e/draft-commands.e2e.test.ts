import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeReply } from '@oneclaw/server/testing';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, expectAccessible, PHONE, startUiHarness, waitForCount, WIDE_DESKTOP, type Device, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(120_000);

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

describeUi(chromiumAvailable ? 'S6 /clear and /compact in the new-session draft (real server, FAKE model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUiHarness();
  });
  afterAll(async () => {
    await ui?.close();
  });
  const sessionCount = async () => (await ui.api<{ sessions: unknown[] }>('GET', '/api/sessions')).sessions.length;

  for (const [name, device] of [
    ['a phone (390 x 844)', PHONE],
    ['a desktop (1440 x 900)', WIDE_DESKTOP],
  ] as const satisfies readonly (readonly [string, Device])[]) {
    test(`S6 on ${name}: the draft does not advertise /clear; /clear and /compact create no session and say why; the files stay; a real first message still starts the session`, async () => {
      const before = await sessionCount();
      const { page, errors } = await ui.open({ device, hash: '#/new' });
      await page.getByRole('heading', { level: 1, name: 'New session' }).waitFor();
      const box = page.getByRole('textbox', { name: 'Message' });
      expect(await box.getAttribute('placeholder')).toBe('Message');
      expect(await page.locator('#composer-help').textContent()).not.toContain('/clear');
      const created: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/sessions')) created.push(request.url());
      });

      await box.fill('/clear');
      await box.press('Enter');
      const note = page.getByRole('status').filter({ hasText: 'There is nothing to clear yet: this session has not started.' });
      await note.waitFor();
      expect(await box.inputValue()).toBe('');
      await expectAccessible(page, `draft with the /clear note on ${name}`);

      // /compact with a file chosen: the note changes, the file stays for the real message.
      await page.getByLabel('Attach files').setInputFiles([{ name: 'kept.png', mimeType: 'image/png', buffer: PNG }]);
      await box.fill('  /compact ');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'There is nothing to compact yet: this session has not started.' }).waitFor();
      await waitForCount(note, 0);
      await page.getByRole('list', { name: 'Files to send' }).getByText('kept.png').waitFor();
      expect(page.url()).toContain('#/new');
      expect(created).toEqual([]);
      expect(await sessionCount()).toBe(before);

      // A real first message starts the session, with the file kept.
      ui.fake.enqueue(fakeReply.text('Started for real.'));
      await box.fill(`Hello from the draft (${name})`);
      await box.press('Enter');
      await page.waitForURL((url) => url.hash.startsWith('#/sessions/'));
      await page.getByRole('list', { name: 'Conversation' }).getByText('Started for real.').waitFor();
      await page.getByRole('list', { name: 'Conversation' }).getByRole('img', { name: 'kept.png' }).waitFor();
      expect(await sessionCount()).toBe(before + 1);
      expect(errors).toEqual([]);
    });
  }
});

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeReply } from '@oneclaw/server/testing';
import type { Page } from 'playwright-core';
import {
  CHROMIUM_SKIP_REASON,
  chromiumAvailable,
  expectAccessible,
  PHONE,
  SERVER_DOWN_LOAD_ERROR,
  startUiHarness,
  waitForCount,
  WIDE_DESKTOP,
  type Device,
  type UiHarness,
} from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(180_000);

function entry(page: Page, text: string) {
  return page.getByRole('list', { name: 'Conversation' }).getByRole('listitem').filter({ hasText: text });
}

describeUi(chromiumAvailable ? 'S6 a turn cut off by a server crash offers Retry (real server killed with SIGKILL, FAKE model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUiHarness();
  });
  afterAll(async () => {
    await ui?.close();
  });

  for (const [name, device] of [
    ['a phone (390 x 844)', PHONE],
    ['a desktop (1440 x 900)', WIDE_DESKTOP],
  ] as const satisfies readonly (readonly [string, Device])[]) {
    test(`S6 on ${name}: the interrupted-turn notice points to Retry and carries the button; Retry answers the same message`, async () => {
      const { sessionId } = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
      const { page, errors } = await ui.open({ device, hash: `#/sessions/${encodeURIComponent(sessionId)}` });
      await page.getByText('No messages yet.', { exact: false }).waitFor();
      const question = `Are you still there? (${name})`;

      // The reply starts streaming, then the server dies mid-turn: nothing records the turn's end.
      ui.fake.enqueue({ text: 'Let me think', hang: true });
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill(question);
      await box.press('Enter');
      await entry(page, 'Let me think').waitFor();
      await ui.crashServer();

      // The new process closed the turn at start-up as interrupted; the page, read again, says so.
      await page.reload();
      const notice = entry(page, 'Turn failed');
      await notice.getByRole('button', { name: 'Retry' }).waitFor();
      const words = (await notice.textContent()) ?? '';
      expect(words).toContain('Interrupted');
      expect(words).toContain('Press Retry to run it again.');
      expect(words).not.toContain('Send the message again');
      await expectAccessible(page, `interrupted turn with Retry on ${name}`);

      ui.fake.enqueue(fakeReply.text('Yes, back again.'));
      await notice.getByRole('button', { name: 'Retry' }).click();
      await entry(page, 'Yes, back again.').waitFor();
      await waitForCount(entry(page, 'Turn failed'), 0);
      await waitForCount(page.getByRole('list', { name: 'Conversation' }).getByText(question, { exact: true }), 1);
      // The browser logs the stream the crash broke and requests made while the server was down; nothing else.
      expect(errors.filter((e) => !SERVER_DOWN_LOAD_ERROR.test(e))).toEqual([]);
    });
  }
});

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeReply } from '@oneclaw/server/testing';
import type { Page } from 'playwright-core';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, PHONE, SERVER_DOWN_LOAD_ERROR, startUiHarness, waitForCount, WIDE_DESKTOP, type Device, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(90_000);

interface MessageData {
  readonly role: string;
  readonly text?: string;
}

describeUi(chromiumAvailable ? 'A message sent while the server is down is kept (real server, FAKE model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUiHarness();
  });
  afterAll(async () => {
    await ui?.close();
  });

  async function openNewSession(device: Device): Promise<{ page: Page; errors: string[]; sessionId: string }> {
    const { sessionId } = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
    const { page, errors } = await ui.open({ device, hash: `#/sessions/${encodeURIComponent(sessionId)}` });
    await page.getByText('No messages yet.', { exact: false }).waitFor();
    return { page, errors, sessionId };
  }

  for (const [name, device] of [
    ['a phone (390 x 844)', PHONE],
    ['a desktop (1440 x 900)', WIDE_DESKTOP],
  ] as const) {
    test(`on ${name}: the message stays marked "not sent" with Retry and one alert; Retry after the server is back sends it once and the reply arrives`, async () => {
      const { page, errors, sessionId } = await openNewSession(device);
      const text = `Hello while the server is down (${name})`;
      const conversation = page.getByRole('list', { name: 'Conversation' });

      await ui.stopServer();
      try {
        const box = page.getByRole('textbox', { name: 'Message' });
        await box.fill(text);
        await box.press('Enter');

        const entry = conversation.getByRole('listitem').filter({ hasText: text });
        await entry.getByText('Not sent.').waitFor();
        await entry.getByRole('button', { name: 'Retry' }).waitFor();
        // One notice for one failure: the not-sent entry itself (no error card, no failed re-read, no list error).
        await page.getByRole('alert').first().waitFor();
        await waitForCount(page.getByRole('alert'), 1);
        await waitForCount(entry.getByRole('alert'), 1);
      } finally {
        await ui.startServer();
      }

      ui.fake.enqueue(fakeReply.text('Received once.'));
      const entry = conversation.getByRole('listitem').filter({ hasText: text });
      await entry.getByRole('button', { name: 'Retry' }).click();
      await conversation.getByText('Received once.').waitFor();
      await page.locator('[aria-labelledby="transcript-title"][aria-busy="false"]').waitFor();
      await waitForCount(entry.getByText('Not sent.'), 0);
      await waitForCount(page.getByRole('alert'), 0);
      // After the re-read, the stored message shows once.
      await waitForCount(conversation.getByText(text, { exact: true }), 1);

      const session = await ui.api<{ messages: MessageData[] }>('GET', `/api/sessions/${encodeURIComponent(sessionId)}`);
      expect(session.messages.filter((message) => message.role === 'user').map((message) => message.text)).toEqual([text]);
      expect(errors.filter((error) => !SERVER_DOWN_LOAD_ERROR.test(error))).toEqual([]);
    });
  }
});

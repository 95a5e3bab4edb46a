import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeReply } from '@oneclaw/server/testing';
import type { Page } from 'playwright-core';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, expectAccessible, PHONE, startUiHarness, waitForCount, WIDE_DESKTOP, type Device, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(120_000);

interface SessionView {
  readonly messages: readonly { readonly messageId: string; readonly role: string; readonly text?: string }[];
  readonly supersededMessageIds: readonly string[];
}

function conversation(page: Page) {
  return page.getByRole('list', { name: 'Conversation' });
}

/** One entry of the conversation by its text. */
function entry(page: Page, text: string) {
  return conversation(page).getByRole('listitem').filter({ hasText: text });
}

/** The turn is over and the page has re-read the session (the stored ids the buttons need). */
async function turnOver(page: Page): Promise<void> {
  await page.locator('[aria-labelledby="transcript-title"][aria-busy="false"]').waitFor();
}

/** What the fake model was sent in its latest request (OpenAI chat completions). */
function lastRequestText(ui: UiHarness): string {
  const request = ui.fake.requests[ui.fake.requests.length - 1];
  return JSON.stringify((request?.body as { messages?: unknown }).messages ?? []);
}

describeUi(chromiumAvailable ? 'Retry the last turn and edit the last message (real server, FAKE model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    // No provider retries: one scripted error is one failed turn.
    ui = await startUiHarness({ env: { ONECLAW_PROVIDER_MAX_RETRIES: '0' } });
  });
  afterAll(async () => {
    await ui?.close();
  });

  for (const [name, device] of [
    ['a phone (390 x 844)', PHONE],
    ['a desktop (1440 x 900)', WIDE_DESKTOP],
  ] as const satisfies readonly (readonly [string, Device])[]) {
    test(`S6 on ${name}: Retry after an error, Retry for another answer, Edit with Escape and Save; superseded messages leave the chat and the model's request`, async () => {
      const { sessionId } = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
      const { page, errors } = await ui.open({ device, hash: `#/sessions/${encodeURIComponent(sessionId)}` });
      await page.getByText('No messages yet.', { exact: false }).waitFor();
      const question = `Tell me a joke (${name})`;

      // The model API fails: the turn ends with a failure notice that offers Retry.
      ui.fake.enqueue(fakeReply.error(500, { message: 'upstream exploded' }));
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill(question);
      await box.press('Enter');
      const failure = entry(page, 'Turn failed');
      await failure.getByRole('button', { name: 'Retry' }).waitFor();
      await turnOver(page);
      await expectAccessible(page, `failed turn with Retry on ${name}`);

      // Retry after the error: a new answer to the same message; the notice is gone.
      ui.fake.enqueue(fakeReply.text('Joke one.'));
      await failure.getByRole('button', { name: 'Retry' }).click();
      await entry(page, 'Joke one.').getByRole('button', { name: 'Retry' }).waitFor();
      await waitForCount(entry(page, 'Turn failed'), 0);
      await waitForCount(conversation(page).getByText(question, { exact: true }), 1);

      // Retry for another answer: the first answer leaves the chat and the model's next request.
      ui.fake.enqueue(fakeReply.text('Joke two.'));
      await entry(page, 'Joke one.').getByRole('button', { name: 'Retry' }).click();
      await entry(page, 'Joke two.').getByRole('button', { name: 'Retry' }).waitFor();
      await waitForCount(entry(page, 'Joke one.'), 0);
      expect(lastRequestText(ui)).toContain(question);
      expect(lastRequestText(ui)).not.toContain('Joke one.');

      // Edit, then Escape: nothing changes.
      await entry(page, question).getByRole('button', { name: 'Edit' }).click();
      const editor = page.getByRole('textbox', { name: 'Edit your message' });
      await editor.waitFor();
      expect(await editor.inputValue()).toBe(question);
      await expectAccessible(page, `message editor on ${name}`);
      await editor.fill('Something else');
      await editor.press('Escape');
      await waitForCount(page.getByRole('textbox', { name: 'Edit your message' }), 0);
      // Focus goes back to Edit, so a keyboard user is where they were.
      await entry(page, question).locator('button:focus', { hasText: 'Edit' }).waitFor();
      await waitForCount(conversation(page).getByText(question, { exact: true }), 1);
      await entry(page, 'Joke two.').waitFor();

      // Edit and Save: the message is replaced, the old one and its answer are gone.
      const riddle = `Tell me a riddle (${name})`;
      ui.fake.enqueue(fakeReply.text('A riddle.'));
      await entry(page, question).getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('textbox', { name: 'Edit your message' }).fill(riddle);
      await page.getByRole('button', { name: 'Save' }).click();
      await entry(page, 'A riddle.').getByRole('button', { name: 'Retry' }).waitFor();
      await entry(page, riddle).getByRole('button', { name: 'Edit' }).waitFor();
      await expectAccessible(page, `Retry and Edit on the last turn on ${name}`);
      await waitForCount(conversation(page).getByText(question, { exact: true }), 0);
      await waitForCount(entry(page, 'Joke two.'), 0);
      expect(lastRequestText(ui)).toContain(riddle);
      expect(lastRequestText(ui)).not.toContain(question);
      expect(lastRequestText(ui)).not.toContain('Joke two.');

      // The server keeps everything and marks what was superseded; a reload shows the same chat.
      const view = await ui.api<SessionView>('GET', `/api/sessions/${encodeURIComponent(sessionId)}`);
      const superseded = view.messages.filter((m) => view.supersededMessageIds.includes(m.messageId)).map((m) => m.text);
      expect(superseded).toEqual([question, 'Joke one.', 'Joke two.']);
      expect(view.messages.filter((m) => !view.supersededMessageIds.includes(m.messageId)).map((m) => m.text)).toEqual([riddle, 'A riddle.']);
      await page.reload();
      await entry(page, 'A riddle.').waitFor();
      await waitForCount(conversation(page).getByRole('listitem'), 2);
      expect(errors).toEqual([]);
    });
  }
});

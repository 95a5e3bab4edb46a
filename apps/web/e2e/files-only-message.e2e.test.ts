import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeReply } from '@oneclaw/server/testing';
import type { Page } from 'playwright-core';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, expectAccessible, PHONE, startUiHarness, waitForCount, waitForText, WIDE_DESKTOP, type Device, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(120_000);

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

interface MessageData {
  readonly role: string;
  readonly text: string;
  readonly attachments?: readonly { name: string }[];
}

function conversation(page: Page) {
  return page.getByRole('list', { name: 'Conversation' });
}

async function turnOver(page: Page): Promise<void> {
  await page.locator('[aria-labelledby="transcript-title"][aria-busy="false"]').waitFor();
}

/** The OpenAI user content the FAKE model got last: the parts of its last user message. */
function lastUserContent(ui: UiHarness): unknown {
  const messages = (ui.fake.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] }).messages;
  return messages.filter((m) => m.role === 'user').at(-1)?.content;
}

describeUi(chromiumAvailable ? 'S6 a message of files only (real server, FAKE model, Chromium; issue 15)' : CHROMIUM_SKIP_REASON, () => {
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
    test(`S6 on ${name}: Send is enabled by a chip alone; the message shows only its files (no empty text), the model gets them with their notes, the title names them`, async () => {
      const { sessionId } = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
      const { page, errors } = await ui.open({ device, hash: `#/sessions/${encodeURIComponent(sessionId)}` });
      await page.getByText('No messages yet.', { exact: false }).waitFor();
      const send = page.getByRole('button', { name: 'Send', exact: true });
      expect(await send.isDisabled()).toBe(true);

      const catName = `cat-${device === PHONE ? 'phone' : 'desktop'}.png`;
      await page.getByLabel('Attach files').setInputFiles([
        { name: catName, mimeType: 'image/png', buffer: PNG },
        { name: 'report.pdf', mimeType: 'application/pdf', buffer: PDF },
      ]);
      await page.getByRole('list', { name: 'Files to send' }).getByText('report.pdf').waitFor();
      await page.locator('button.composer__send:not([disabled])').waitFor();

      ui.fake.enqueue(fakeReply.text('A cat and a report.'));
      await send.click();
      const mine = conversation(page).locator('li.msg--user');
      await mine.getByRole('img', { name: catName }).waitFor();
      await mine.getByRole('link', { name: /report\.pdf/ }).waitFor();
      await conversation(page).getByText('A cat and a report.').waitFor();
      await turnOver(page);
      // Files only: no text line in the bubble, and the chat header is named by the files.
      await waitForCount(mine.locator('.msg__text'), 0);
      await waitForText(page.getByRole('heading', { level: 1 }), `${catName}, report.pdf`);
      await expectAccessible(page, `message of files only on ${name}`);

      // The model got the image and one text part: the notes naming both files.
      const content = lastUserContent(ui) as { type: string; text?: string }[];
      expect(content.map((part) => part.type)).toEqual(['image_url', 'text']);
      expect(content[1]?.text).toMatch(new RegExp(`^\\[Attached image "${catName.replace('.', '\\.')}"[^\\n]*\\]\\n\\n\\[Attached PDF "report\\.pdf"`));

      // Stored without text; the session list names it by its files; a reload shows the same.
      const view = await ui.api<{ messages: MessageData[] }>('GET', `/api/sessions/${encodeURIComponent(sessionId)}`);
      expect(view.messages.filter((m) => m.role === 'user')).toEqual([
        expect.objectContaining({ text: '', attachments: [expect.objectContaining({ name: catName }), expect.objectContaining({ name: 'report.pdf' })] }),
      ]);
      const listed = await ui.api<{ sessions: { sessionId: string; title: string }[] }>('GET', '/api/sessions');
      expect(listed.sessions.find((s) => s.sessionId === sessionId)?.title).toBe(`${catName}, report.pdf`);
      await page.reload();
      await conversation(page).locator('li.msg--user').getByRole('img', { name: catName }).waitFor();
      await waitForCount(conversation(page).locator('li.msg--user .msg__text'), 0);
      expect(errors).toEqual([]);
    });
  }

  test('S6 on a phone (390 x 844): the new-session draft starts a session with a file and no text', async () => {
    const { page, errors } = await ui.open({ device: PHONE, hash: '#/new' });
    await page.getByRole('heading', { level: 1, name: 'New session' }).waitFor();
    await page.getByLabel('Attach files').setInputFiles([{ name: 'draft-cat.png', mimeType: 'image/png', buffer: PNG }]);
    await page.getByRole('list', { name: 'Files to send' }).getByText('draft-cat.png').waitFor();
    ui.fake.enqueue(fakeReply.text('A cat from the draft.'));
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/sessions');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const { sessionId } = (await (await created).json()) as { sessionId: string };
    await page.waitForURL((url) => url.hash === `#/sessions/${encodeURIComponent(sessionId)}`);
    await conversation(page).getByText('A cat from the draft.').waitFor();
    await conversation(page).locator('li.msg--user').getByRole('img', { name: 'draft-cat.png' }).waitFor();
    expect(errors).toEqual([]);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeReply } from '@oneclaw/server/testing';
import type { Page } from 'playwright-core';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, expectAccessible, PHONE, startUiHarness, waitForCount, WIDE_DESKTOP, type Device, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(120_000);

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
/** The browser logs the upload the server refuses (415); that one is expected here. */
const REFUSED_UPLOAD = /status of 415/;

interface MessageData {
  readonly role: string;
  readonly text?: string;
  readonly attachments?: readonly { name: string; mediaType: string }[];
}

describeUi(chromiumAvailable ? 'S6 attachments: images and PDFs on a message (real server, FAKE model, Chromium; issue 15)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  let tmp: string;
  let bigFile: string;
  beforeAll(async () => {
    ui = await startUiHarness();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-ui-attach-'));
    bigFile = path.join(tmp, 'huge-scan.pdf');
    writeFileSync(bigFile, Buffer.concat([PDF, Buffer.alloc(21 * 1024 * 1024)]));
  });
  afterAll(async () => {
    await ui?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
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
    test(`on ${name}: attach, remove, refused files keep the typed text, send; the transcript shows the thumbnail and the PDF link, also after a reload`, async () => {
      const { page, errors, sessionId } = await openNewSession(device);
      const box = page.getByRole('textbox', { name: 'Message' });
      const files = page.getByLabel('Attach files');
      const chips = page.getByRole('list', { name: 'Files to send' });
      const text = `What is in these? (${name})`;

      // The labelled paperclip button, drawn as inline SVG, opens the file picker.
      const attach = page.getByRole('button', { name: 'Attach images or PDFs' });
      await attach.locator('svg').waitFor();
      const chooser = page.waitForEvent('filechooser');
      await attach.click();
      expect((await chooser).isMultiple()).toBe(true);

      await box.fill(text);
      await files.setInputFiles([
        { name: 'cat.png', mimeType: 'image/png', buffer: PNG },
        { name: 'report.pdf', mimeType: 'application/pdf', buffer: PDF },
      ]);
      await chips.getByText('cat.png').waitFor();
      await chips.getByText('report.pdf').waitFor();

      // A chip is removable; the same file can be chosen again.
      await page.getByRole('button', { name: 'Remove cat.png' }).click();
      await waitForCount(chips.getByText('cat.png'), 0);
      await files.setInputFiles([{ name: 'cat.png', mimeType: 'image/png', buffer: PNG }]);
      await chips.getByText('cat.png').waitFor();

      // Wrong type and too big: refused on choosing, named in one alert; the text and chips stay.
      await files.setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
      await page.getByRole('alert').filter({ hasText: '"notes.txt" cannot be attached: only PNG, JPEG, GIF and WebP images and PDF files can.' }).waitFor();
      await files.setInputFiles(bigFile);
      await page.getByRole('alert').filter({ hasText: '"huge-scan.pdf" is too big (21 MB): files up to 20 MB can be attached.' }).waitFor();
      expect(await box.inputValue()).toBe(text);
      await waitForCount(chips.getByRole('listitem'), 2);
      await expectAccessible(page, `composer with files and an alert on ${name}`);

      // A file the server refuses on send (its bytes are not a PNG): the alert says why; nothing is lost.
      await files.setInputFiles([{ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('<html>not a picture</html>') }]);
      await box.press('Enter');
      await page.getByRole('alert').filter({ hasText: '"fake.png" was not sent: The file is not what its Content-Type says' }).waitFor();
      expect(await box.inputValue()).toBe(text);
      await waitForCount(chips.getByRole('listitem'), 3);
      await page.getByRole('button', { name: 'Remove fake.png' }).click();

      ui.fake.enqueue(fakeReply.text('A cat and a report.'));
      const before = ui.fake.requests.length;
      await page.getByRole('button', { name: 'Send' }).click();
      const conversation = page.getByRole('list', { name: 'Conversation' });
      await conversation.getByText('A cat and a report.').waitFor();
      await waitForCount(page.getByRole('list', { name: 'Files to send' }), 0);
      expect(await box.inputValue()).toBe('');

      // The model got the image as an image_url part and the PDF named, with the pdf tools' path.
      const request = ui.fake.requests[before]!.body as { messages: { role: string; content: unknown }[] };
      const content = request.messages.find((m) => m.role === 'user')!.content as { type: string; text?: string; image_url?: { url: string } }[];
      expect(content[0]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } });
      expect(content.at(-1)!.text).toContain('[Attached PDF "report.pdf"');

      const stored = await ui.api<{ messages: MessageData[] }>('GET', `/api/sessions/${encodeURIComponent(sessionId)}`);
      expect(stored.messages.filter((m) => m.role === 'user').map((m) => [m.text, m.attachments?.map((a) => [a.name, a.mediaType])])).toEqual([
        [
          text,
          [
            ['report.pdf', 'application/pdf'],
            ['cat.png', 'image/png'],
          ],
        ],
      ]);

      const checkTranscript = async () => {
        const message = conversation.getByRole('listitem').filter({ hasText: text });
        // The thumbnail is read with the token and shown as a data: URL (the CSP allows no other).
        await message.locator('img[alt="cat.png"][src^="data:image/png;base64,"]').waitFor();
        const link = message.getByRole('link', { name: /report\.pdf/ });
        await link.waitFor();
        const download = page.waitForEvent('download');
        await link.click();
        expect((await download).suggestedFilename()).toBe('report.pdf');
      };
      await checkTranscript();
      await page.reload();
      await checkTranscript();
      await expectAccessible(page, `transcript with attachments on ${name}`);

      expect(errors.filter((error) => !REFUSED_UPLOAD.test(error))).toEqual([]);
    });
  }
});

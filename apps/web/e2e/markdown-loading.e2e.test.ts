import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeReply } from '@oneclaw/server/testing';
import type { Request } from 'playwright-core';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, PHONE, startUiHarness, WIDE_DESKTOP, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(90_000);

/** The markdown renderer's own chunk (markdown-it and highlight.js), split off the main bundle. */
const MARKDOWN_CHUNK = /\/assets\/markdown-render-[\w-]+\.js$/;
const isMarkdownChunk = (request: Request) => MARKDOWN_CHUNK.test(new URL(request.url()).pathname);

describeUi(chromiumAvailable ? 'S6 the markdown renderer loads on first need (real server, FAKE model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  let sessionId: string;
  beforeAll(async () => {
    ui = await startUiHarness();
    sessionId = (await ui.api<{ sessionId: string }>('POST', '/api/sessions', {})).sessionId;
    ui.fake.enqueue(fakeReply.text('First line\nsecond line\n\n| Tool | Calls |\n|:--|--:|\n| pdf_info | 3 |'));
    await ui.api('POST', `/api/sessions/${sessionId}/messages`, { text: 'Answer with a table' });
  });
  afterAll(async () => {
    await ui?.close();
  });

  test('S6 a screen without replies (settings) never fetches the renderer; the chat fetches it and renders the reply as markdown (1440 x 900)', async () => {
    const { page, errors } = await ui.open({ device: WIDE_DESKTOP, hash: '#/settings/agents' });
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (isMarkdownChunk(request)) fetched.push(request.url());
    });
    await page.getByRole('article', { name: 'OneClaw', exact: true }).waitFor();
    expect(fetched).toEqual([]);

    await page
      .getByRole('complementary', { name: 'Sessions' })
      .getByRole('link', { name: /Answer with a table/ })
      .click();
    const reply = page.getByRole('list', { name: 'Conversation' }).getByRole('listitem').filter({ hasText: 'First line' });
    await reply.getByRole('table').getByRole('cell', { name: 'pdf_info' }).waitFor();
    expect(fetched).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  test('S6 until the renderer has arrived a reply shows as its plain text, line breaks kept; then as markdown (390 x 844)', async () => {
    // Hold the chunk until the plain text has been seen: a gate, not a delay.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { page, context, errors } = await ui.open({ device: PHONE, hash: '#/settings/agents' });
    await context.route(MARKDOWN_CHUNK, async (route) => {
      await gate;
      await route.continue();
    });
    await page.getByRole('article', { name: 'OneClaw', exact: true }).waitFor();
    await page.evaluate((id) => (window.location.hash = `#/sessions/${id}`), sessionId);

    const reply = page.getByRole('list', { name: 'Conversation' }).getByRole('listitem').filter({ hasText: 'First line' });
    const plain = reply.locator('.md--plain p');
    await plain.waitFor();
    expect(await plain.evaluate((el) => (el as HTMLElement).innerText)).toBe('First line\nsecond line\n\n| Tool | Calls |\n|:--|--:|\n| pdf_info | 3 |');
    expect(await reply.getByRole('table').count()).toBe(0);

    release();
    await reply.getByRole('table').getByRole('cell', { name: 'pdf_info' }).waitFor();
    await plain.waitFor({ state: 'detached' });
    // The same line break, now as markdown's <br>.
    await reply.locator('.md p').filter({ hasText: 'First line' }).locator('br').waitFor({ state: 'attached' });
    expect(errors).toEqual([]);
  });
});

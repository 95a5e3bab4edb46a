import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeGate, fakeReply } from '@oneclaw/server/testing';
import type { Page } from 'playwright-core';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, expectAccessible, PHONE, startUiHarness, waitForText, WIDE_DESKTOP, type Device, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(90_000);

/** The model the server asks; shown on each reply and in the waiting indicator. */
const MODEL = 'deepseek-reasoner';

describeUi(chromiumAvailable ? 'S6 which model answers, the waiting state and streamed reasoning (real server, FAKE model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUiHarness({ env: { ONECLAW_MODEL: MODEL } });
  });
  afterAll(async () => {
    await ui?.close();
  });

  async function openNewSession(device: Device): Promise<{ page: Page; errors: string[] }> {
    const { sessionId } = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
    const { page, errors } = await ui.open({ device, hash: `#/sessions/${encodeURIComponent(sessionId)}` });
    await page.getByText('No messages yet.', { exact: false }).waitFor();
    return { page, errors };
  }

  async function send(page: Page, text: string): Promise<void> {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await box.press('Enter');
  }

  /** The visible waiting indicator (a polite status region); empty while nothing is awaited. */
  const indicator = (page: Page) => page.locator('.waiting[role="status"]');
  const conversation = (page: Page) => page.getByRole('list', { name: 'Conversation' });
  const turnOver = (page: Page) => page.locator('[aria-labelledby="transcript-title"][aria-busy="false"]').waitFor();

  /** The element is inside the viewport: the transcript followed it. */
  async function expectInViewport(page: Page, selector: ReturnType<typeof indicator>): Promise<void> {
    const box = await selector.boundingBox();
    const viewport = page.viewportSize();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(viewport!.height);
  }

  for (const [name, device] of [
    ['a phone (390 x 844)', PHONE],
    ['a desktop (1440 x 900)', WIDE_DESKTOP],
  ] as const) {
    test(`S6 on ${name}: "Thinking…" shows from the send until the FAKE model's first token; the reply names its model and keeps its reasoning collapsed (plain text), also after a reload`, async () => {
      const { page, errors } = await openNewSession(device);
      const gate = fakeGate();
      // Model output with markup: the reasoning must show it as text, never as HTML.
      const reasoning = `The user wants a haiku about autumn <b>now</b> (${name}).`;
      ui.fake.enqueue({ waitFor: gate.opened, thinking: reasoning, text: 'Autumn moonlight, a worm digs silently.' });
      await send(page, 'Write a haiku');

      // The fake model holds its reply: whatever is on screen now is the waiting state.
      await waitForText(indicator(page), /^\s*Thinking…/);
      await indicator(page).getByText('Thinking…').waitFor({ state: 'visible' });
      await waitForText(indicator(page).locator('.waiting__model'), MODEL);
      await expectInViewport(page, indicator(page));
      await expectAccessible(page, `thinking on ${name}`);
      gate.release();

      const reply = conversation(page).getByRole('listitem').filter({ hasText: 'Autumn moonlight' });
      await reply.waitFor();
      await turnOver(page);
      await indicator(page).getByText('Thinking…').waitFor({ state: 'detached' });
      await waitForText(reply.locator('.msg__model'), `Answered by ${MODEL} · openai`);

      const details = reply.locator('details.msg__reasoning');
      const summary = details.locator('summary');
      await waitForText(summary, 'Reasoning');
      // Closed by default: the reasoning is there but not shown.
      expect(await details.getAttribute('open')).toBeNull();
      await reply.getByText(reasoning).waitFor({ state: 'hidden' });
      await summary.click();
      await reply.getByText(reasoning).waitFor({ state: 'visible' });
      expect(await details.locator('b').count()).toBe(0);
      await expectAccessible(page, `reasoning open on ${name}`);

      // The reasoning and the model are recorded with the message: a reload shows them again.
      await page.reload();
      const stored = conversation(page).getByRole('listitem').filter({ hasText: 'Autumn moonlight' });
      await waitForText(stored.locator('.msg__model'), `Answered by ${MODEL} · openai`);
      await waitForText(stored.locator('details.msg__reasoning summary'), 'Reasoning');
      await stored.getByText(reasoning).waitFor({ state: 'hidden' });
      expect(errors).toEqual([]);
    });

    test(`S6 on ${name}: during a FAKE 429 with retry-after the indicator says the provider is busy and when it retries; the reply then arrives`, async () => {
      const { page, errors } = await openNewSession(device);
      const gate = fakeGate();
      // The retry is held too, so the notice stays up until the test has seen it.
      ui.fake.enqueue(fakeReply.rateLimited(2), { waitFor: gate.opened, text: 'Sorry for the wait.' });
      await send(page, 'Are you there?');

      await waitForText(indicator(page).locator('.waiting__text'), 'The provider is busy (HTTP 429); retrying in 2 s (attempt 2 of 3).');
      await indicator(page).locator('.waiting__text').waitFor({ state: 'visible' });
      await expectInViewport(page, indicator(page));
      await expectAccessible(page, `provider retry notice on ${name}`);
      gate.release();

      await conversation(page).getByText('Sorry for the wait.').waitFor();
      await turnOver(page);
      await indicator(page).locator('.waiting__text').waitFor({ state: 'detached' });
      const reply = conversation(page).getByRole('listitem').filter({ hasText: 'Sorry for the wait.' });
      await waitForText(reply.locator('.msg__model'), `Answered by ${MODEL} · openai`);
      // No reasoning was sent: no disclosure.
      expect(await reply.locator('details').count()).toBe(0);
      expect(errors).toEqual([]);
    });
  }
});

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeReply } from '@oneclaw/server/testing';
import type { Locator, Page } from 'playwright-core';
import {
  CHROMIUM_SKIP_REASON,
  chromiumAvailable,
  expectAccessible,
  PHONE,
  startSession,
  startUiHarness,
  waitForAttribute,
  waitForCount,
  waitForText,
  WIDE_DESKTOP,
  type Device,
  type UiHarness,
} from './harness';
import { SEARCH_SETTLE_MS } from '../src/chat/use-settled-query';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(120_000);

interface Summary {
  sessionId: string;
  title: string;
}

const VIEWPORTS: readonly [string, Device][] = [
  ['390 x 844 phone', PHONE],
  ['1440 x 900 desktop', WIDE_DESKTOP],
];

/** The session list: on a phone it is a drawer, opened here from the menu button (it must be closed). */
async function openList(page: Page, device: Device): Promise<Locator> {
  if (device === PHONE) {
    const menu = page.getByRole('banner').getByRole('button', { name: 'Sessions' });
    await waitForAttribute(menu, 'aria-expanded', 'false');
    await menu.click();
    await waitForAttribute(menu, 'aria-expanded', 'true');
  }
  return page.getByRole('complementary', { name: 'Sessions' });
}

/** On a phone, navigation closes the drawer: wait for that before the next step opens it again. */
async function drawerClosed(page: Page, device: Device): Promise<void> {
  if (device === PHONE) await waitForAttribute(page.getByRole('banner').getByRole('button', { name: 'Sessions' }), 'aria-expanded', 'false');
}

function rows(list: Locator): Locator {
  return list.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
}

async function turnOver(page: Page): Promise<void> {
  await page.locator('[aria-labelledby="transcript-title"][aria-busy="false"]').waitFor();
}

for (const [viewport, device] of VIEWPORTS) {
  describeUi(chromiumAvailable ? `S6 session management at ${viewport} (real server, FAKE model, Chromium)` : CHROMIUM_SKIP_REASON, () => {
    let ui: UiHarness;
    beforeAll(async () => {
      ui = await startUiHarness();
    });
    afterAll(async () => {
      await ui?.close();
    });
    const sessions = async () => (await ui.api<{ sessions: Summary[] }>('GET', '/api/sessions')).sessions;

    test(`S6 (${viewport}): with no session #/ shows the new-session draft; pressing "New session" and leaving creates nothing`, async () => {
      const { page, errors } = await ui.open({ device });
      await page.getByRole('heading', { level: 1, name: 'New session' }).waitFor();
      expect(await page.getByLabel('Agent').inputValue()).toBe('default');
      const list = await openList(page, device);
      await list.getByRole('status').filter({ hasText: 'No sessions yet.' }).waitFor();
      await list.getByRole('link', { name: 'New session' }).click();
      await page.waitForURL((url) => url.hash === '#/new');
      await drawerClosed(page, device);
      await page.getByRole('heading', { level: 1, name: 'New session' }).waitFor();
      await page.getByRole('textbox', { name: 'Message' }).fill('typed, then abandoned');
      await expectAccessible(page, `new-session draft (${viewport})`);
      // Walk away: to the groups browser and back to the chat.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
      await page.getByRole('heading', { level: 1, name: 'Tool groups' }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();
      await page.getByRole('heading', { level: 1, name: 'New session' }).waitFor();
      expect(await sessions()).toEqual([]);

      // A first message the server refuses (over the 100,000-character limit): the session made
      // for it is deleted again, the text is back in the box and the draft says why.
      const tooLong = 'x'.repeat(100_001);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill(tooLong);
      const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith('/api/sessions/'));
      await box.press('Enter');
      expect((await deleted).status()).toBe(204);
      await page.getByRole('alert').filter({ hasText: 'Could not start the session:' }).waitFor();
      expect(await box.inputValue()).toBe(tooLong);
      expect(new URL(page.url()).hash).toBe('#/');
      expect(await sessions()).toEqual([]);
      expect(errors.filter((e) => !e.includes('400'))).toEqual([]);
    });

    test(`S6 (${viewport}): the draft's agent picker starts the session with the chosen agent (SessionStarted.agentId, its system prompt sent)`, async () => {
      const agent = await ui.api<{ id: string }>('POST', '/api/agents', { name: 'Travel helper', description: 'Plans trips.', systemPrompt: 'You plan trips for the user.' });
      const { page, errors } = await ui.open({ device, hash: '#/new' });
      const picker = page.getByLabel('Agent');
      await picker.locator('option', { hasText: 'Travel helper' }).waitFor({ state: 'attached' });
      expect(await picker.inputValue()).toBe('default');
      await picker.selectOption({ label: 'Travel helper' });
      await waitForText(page.locator('#draft-agent-help'), 'Plans trips.');

      ui.fake.enqueue(fakeReply.text('Porto is lovely in May.'));
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Plan a trip to Porto');
      await box.press('Enter');
      await page.waitForURL((url) => url.hash.startsWith('#/sessions/'));
      await page.getByRole('list', { name: 'Conversation' }).getByText('Porto is lovely in May.').waitFor();
      await turnOver(page);
      const sessionId = decodeURIComponent(new URL(page.url()).hash.slice('#/sessions/'.length));
      const { events } = await ui.api<{ events: { type: string; data: { agentId?: string } }[] }>('GET', `/api/sessions/${sessionId}/events`);
      expect(events[0]).toMatchObject({ type: 'SessionStarted', data: { agentId: agent.id } });
      expect(JSON.stringify(ui.fake.requests.at(-1)?.body)).toContain('You plan trips for the user.');
      expect((await sessions()).map((s) => s.title)).toEqual(['Plan a trip to Porto']);
      expect(errors).toEqual([]);
    });

    test(`S6 (${viewport}): the list searches titles and message text; Rename is inline with Save and Cancel; Delete asks first, drops the session from the list, moves on, and the audit keeps it`, async () => {
      const { page, errors } = await ui.open({ device });
      await page.waitForURL((url) => url.hash.startsWith('#/sessions/'));
      const [porto] = await sessions();
      await openList(page, device);
      ui.fake.enqueue(fakeReply.text('Buy Apples and pears.'));
      const groceries = await startSession(page, 'Groceries for the week');
      await turnOver(page);
      await drawerClosed(page, device);

      // Search: by the assistant's text in another case, then by nothing that exists.
      let list = await openList(page, device);
      const search = list.getByRole('searchbox', { name: 'Search sessions' });
      await waitForCount(rows(list), 2);
      await search.fill('APPLES');
      await waitForCount(rows(list), 1);
      await waitForText(rows(list).first().locator('.session-list__title'), 'Groceries for the week');
      await search.fill('porto');
      await waitForText(rows(list).first().locator('.session-list__title'), 'Plan a trip to Porto');
      await search.fill('zebra');
      await list.getByRole('status').filter({ hasText: 'No session matches “zebra”.' }).waitFor();
      await expectAccessible(page, `session search with no match (${viewport})`);
      await search.fill('');
      await waitForCount(rows(list), 2);

      // Rename: Cancel keeps the title; Escape too (and on a phone the drawer stays open); Save renames.
      const row = rows(list).filter({ hasText: 'Groceries for the week' });
      await row.getByRole('button', { name: 'Rename Groceries for the week' }).click();
      const titleBox = list.getByRole('textbox', { name: 'New title for Groceries for the week' });
      expect(await titleBox.inputValue()).toBe('Groceries for the week');
      await titleBox.fill('Never saved');
      await expectAccessible(page, `inline rename (${viewport})`);
      await list.getByRole('button', { name: 'Cancel' }).click();
      await row.getByRole('link', { name: /Groceries for the week/ }).waitFor();
      await row.getByRole('button', { name: 'Rename Groceries for the week' }).click();
      await titleBox.press('Escape');
      await titleBox.waitFor({ state: 'detached' });
      if (device === PHONE) expect(await page.getByRole('banner').getByRole('button', { name: 'Sessions' }).getAttribute('aria-expanded')).toBe('true');
      await row.getByRole('button', { name: 'Rename Groceries for the week' }).click();
      await titleBox.fill('  Shopping list ');
      await list.getByRole('button', { name: 'Save' }).click();
      const renamed = rows(list).filter({ hasText: 'Shopping list' });
      await renamed.getByRole('link').waitFor();
      await waitForText(page.getByRole('heading', { level: 1 }), 'Shopping list');
      expect((await sessions()).find((s) => s.sessionId === groceries)?.title).toBe('Shopping list');
      await search.fill('shopping');
      await waitForCount(rows(list), 1);
      await search.fill('');
      await waitForCount(rows(list), 2);

      // Delete asks first: Cancel keeps the session.
      await renamed.getByRole('button', { name: 'Delete Shopping list' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this session?' });
      await dialog.waitFor();
      await expectAccessible(page, `delete dialog (${viewport})`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect((await sessions()).map((s) => s.sessionId)).toContain(groceries);

      // Confirmed: the open session is gone from the list and the page moves to the other one,
      // even though the search left only the deleted one in view.
      await search.fill('shopping');
      await waitForCount(rows(list), 1);
      await renamed.getByRole('button', { name: 'Delete Shopping list' }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL((url) => url.hash === `#/sessions/${encodeURIComponent(porto!.sessionId)}`);
      await drawerClosed(page, device);
      list = await openList(page, device);
      await list.getByRole('status').filter({ hasText: 'No session matches “shopping”.' }).waitFor();
      await search.fill('');
      await waitForCount(rows(list), 1);
      expect(await rows(list).allTextContents()).toEqual([expect.stringContaining('Plan a trip to Porto')]);
      expect((await sessions()).map((s) => s.sessionId)).toEqual([porto!.sessionId]);

      // The audit keeps it, with the rename and the delete; its old link says it was deleted.
      const audit = await ui.api<{ events: { summary: string }[] }>('GET', `/api/sessions/${groceries}/audit`);
      expect(audit.events.map((e) => e.summary)).toEqual(expect.arrayContaining(['renamed to "Shopping list"', expect.stringContaining('deleted (archived)')]));
      await page.goto(`${ui.server.url}/#/sessions/${encodeURIComponent(groceries)}`);
      await page.getByRole('heading', { level: 1, name: 'Session deleted' }).waitFor();
      await expectAccessible(page, `deleted session page (${viewport})`);
      await page.getByRole('link', { name: 'Open its audit' }).click();
      await page.getByText('renamed to "Shopping list"').waitFor();

      // Deleting the last session leaves the draft.
      await page.goto(`${ui.server.url}/#/sessions/${encodeURIComponent(porto!.sessionId)}`);
      await waitForText(page.getByRole('heading', { level: 1 }), 'Plan a trip to Porto');
      list = await openList(page, device);
      await rows(list).getByRole('button', { name: 'Delete Plan a trip to Porto' }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL((url) => url.hash === '#/new');
      await page.getByRole('heading', { level: 1, name: 'New session' }).waitFor();
      expect(await sessions()).toEqual([]);
      expect(errors.filter((e) => !e.includes('410'))).toEqual([]);
    });

    test(`S6 (${viewport}): the search waits until typing pauses (${SEARCH_SETTLE_MS} ms): one request for a word, not one per keystroke; emptying the box lists every session at once; until an answer comes, the list says what the last answer was about`, async () => {
      for (const [sessionId, title] of [
        ['settle-a', 'Alpha notes'],
        ['settle-b', 'Beta notes'],
      ]) {
        await ui.api('POST', '/api/sessions', { sessionId });
        await ui.api('PATCH', `/api/sessions/${sessionId}`, { title });
      }
      const { page, errors } = await ui.open({ device, hash: '#/sessions/settle-a', fakeClock: true });
      const searched: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/api/sessions' && url.searchParams.has('q')) searched.push(url.searchParams.get('q') ?? '');
      });
      const list = await openList(page, device);
      await waitForCount(rows(list), 2);

      // Time stands still: however the keys are spaced in real time, typing has not paused.
      await page.clock.pauseAt(Date.now() + 60_000);
      const search = list.getByRole('searchbox', { name: 'Search sessions' });
      await search.pressSequentially('alpha');
      expect(await search.inputValue()).toBe('alpha');
      expect(searched).toEqual([]);
      await page.clock.runFor(SEARCH_SETTLE_MS + 100);
      await waitForCount(rows(list), 1);
      await waitForText(rows(list).first().locator('.session-list__title'), 'Alpha notes');
      expect(searched).toEqual(['alpha']);

      // Emptied: the whole list, sooner than a search would have waited.
      await search.fill('');
      await page.clock.runFor(SEARCH_SETTLE_MS / 2);
      await waitForCount(rows(list), 2);
      expect(searched).toEqual(['alpha']);

      // While a search's answer is on its way, what the list says is still about the last answer.
      await search.fill('zzz');
      await page.clock.runFor(SEARCH_SETTLE_MS + 100);
      const status = list.getByRole('status');
      await waitForText(status, 'No session matches “zzz”.');
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let reached = () => {};
      const held = new Promise<void>((resolve) => (reached = resolve));
      await page.route(
        (url) => url.pathname === '/api/sessions' && url.searchParams.get('q') === 'alpha',
        async (route) => {
          reached();
          await released;
          await route.continue();
        },
      );
      await search.fill('alpha');
      await page.clock.runFor(SEARCH_SETTLE_MS + 100);
      await held;
      await waitForText(status, 'No session matches “zzz”.');
      release();
      await waitForCount(rows(list), 1);
      await waitForText(rows(list).first().locator('.session-list__title'), 'Alpha notes');
      expect(searched).toEqual(['alpha', 'zzz', 'alpha']);
      await page.clock.resume();
      expect(errors).toEqual([]);
    });
  });
}

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
  waitForAttribute,
  WIDE_DESKTOP,
  type Device,
  type UiHarness,
} from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(120_000);

/** A reply with every markdown construct the renderer makes: its table, list, links and code block are on screen when axe runs. */
const MARKDOWN_REPLY = [
  '## Summary',
  '',
  'The **PDF tools** are ready. See https://example.com/docs or [the guide](https://example.com/guide).',
  '',
  '| Tool | Calls | Note |',
  '|:--|--:|:-:|',
  '| pdf_info | 3 | reads the page count and metadata of a long document |',
  '| pdf_text | 12 | extracts the text of every page, one page at a time |',
  '',
  '- first item',
  '- second item with `inline code`',
  '',
  '> a quote',
  '',
  '```ts',
  'const answer: number = 42; // a long line that is wider than a phone screen, so the block scrolls sideways inside its box',
  '```',
].join('\n');

const DEVICES = [
  ['a 390 x 844 phone', PHONE],
  ['a 1440 x 900 desktop', WIDE_DESKTOP],
] as const;

function conversation(page: Page) {
  return page.getByRole('list', { name: 'Conversation' });
}

async function turnOver(page: Page): Promise<void> {
  await page.locator('[aria-labelledby="transcript-title"][aria-busy="false"]').waitFor();
}

/** Opens the Sessions drawer on a phone (the list is a sidebar on a desktop, always shown). */
async function openDrawerOnPhone(page: Page, device: Device): Promise<void> {
  if (device !== PHONE) return;
  const menu = page.getByRole('banner').getByRole('button', { name: 'Sessions' });
  await menu.click();
  await waitForAttribute(menu, 'aria-expanded', 'true');
  await page.locator('.shell--drawer-open').waitFor();
}

/*
 * S6 accessibility: axe-core (`expectAccessible`, e2e/accessibility-check.ts) on every screen at
 * both viewports, including the states a user meets only now and then: errors, a failed turn, a
 * message not sent, the server gone. Each screen is checked as it is on screen, so a notice or an
 * expanded card is part of what is checked.
 */
describeUi(chromiumAvailable ? 'S6 accessibility: axe-core finds no serious or critical issue on any screen (real server, FAKE model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUiHarness();
  });
  afterAll(async () => {
    await ui?.close();
  });

  test('S6 the check itself: it fails on a nameless button and on low-contrast text, naming the rule, the impact and the element', async () => {
    const { page, errors } = await ui.open({ signedIn: false });
    await page.getByRole('heading', { name: 'Connect to OneClaw' }).waitFor();
    await expectAccessible(page, 'sign-in before planting');
    // Planted through the DOM (no script tag, so the page's CSP is not involved).
    await page.evaluate(() => {
      const button = document.createElement('button');
      button.id = 'planted-nameless';
      document.querySelector('main, #app')!.append(button);
      const faint = document.createElement('p');
      faint.id = 'planted-faint';
      faint.textContent = 'Barely readable';
      faint.style.color = '#c8c8c8';
      faint.style.background = '#ffffff';
      document.querySelector('main, #app')!.append(faint);
    });
    const failure = await expectAccessible(page, 'planted').then(
      () => 'no failure',
      (error: Error) => error.message,
    );
    expect(failure).toContain('planted: axe-core found serious or critical accessibility violations');
    expect(failure).toMatch(/- button-name \(critical, light colours\): Buttons must have discernible text .*\n\s+at #planted-nameless\n/);
    expect(failure).toMatch(/- color-contrast \(serious, light colours\): .*\n\s+at #planted-faint\n/);
    expect(errors).toEqual([]);
  });

  // Before any session exists: the sign-in screen and the chat's empty home.
  describe.each(DEVICES)('with no session yet, on %s', (name, device) => {
    test(`S6 the sign-in screen, with and without its error, and the empty chat home (${name})`, async () => {
      const { page, errors } = await ui.open({ device, signedIn: false });
      await page.getByRole('heading', { name: 'Connect to OneClaw' }).waitFor();
      await expectAccessible(page, `sign-in (${name})`);

      await page.getByLabel('API token').fill('wrong-token-0123456789');
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.getByRole('alert').waitFor();
      await expectAccessible(page, `sign-in with a refused token (${name})`);

      const signedIn = await ui.open({ device });
      // With no session the home is the new-session draft (nothing is created until the first send).
      await signedIn.page.getByRole('heading', { level: 1, name: 'New session' }).waitFor();
      await expectAccessible(signedIn.page, `chat home with no session: the new-session draft (${name})`);
      expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
      expect(signedIn.errors).toEqual([]);
    });
  });

  describe.each(DEVICES)('with conversations, on %s', (name, device) => {
    let markdownSession: string;
    let failedSession: string;
    beforeAll(async () => {
      // Driven through the HTTP API: a turn that loads a group and answers in markdown, and one the model refuses.
      markdownSession = (await ui.api<{ sessionId: string }>('POST', '/api/sessions', {})).sessionId;
      ui.fake.enqueue(fakeReply.toolCall('load_tool_group', { group_name: 'pdf' }), fakeReply.text(MARKDOWN_REPLY));
      await ui.api('POST', `/api/sessions/${markdownSession}/messages`, { text: 'Get the PDF tools ready and summarise them' });
      failedSession = (await ui.api<{ sessionId: string }>('POST', '/api/sessions', {})).sessionId;
      ui.fake.enqueue(fakeReply.error(400, { message: 'fake model refuses this request' }));
      await ui.api('POST', `/api/sessions/${failedSession}/messages`, { text: 'This one fails' });
    });

    test(`S6 chat: a reply in markdown with its tool card open, the session drawer and the Sign out dialog (${name})`, async () => {
      const { page, errors } = await ui.open({ device, hash: `#/sessions/${markdownSession}` });
      const reply = conversation(page).getByRole('listitem').filter({ hasText: 'are ready' });
      await reply.locator('pre code.hljs').waitFor();
      await reply.getByRole('table').waitFor();
      await expectAccessible(page, `chat with a markdown reply (${name})`);

      const card = conversation(page).getByRole('button', { name: /Tool call load_tool_group\b/ });
      await card.click();
      await waitForAttribute(card, 'aria-expanded', 'true');
      await page
        .locator(`#${await card.getAttribute('aria-controls')}`)
        .getByText('"group_name": "pdf"')
        .waitFor();
      await expectAccessible(page, `chat with a tool card open (${name})`);

      await openDrawerOnPhone(page, device);
      await expectAccessible(page, `chat with the session list${device === PHONE ? ' drawer open' : ''} (${name})`);
      if (device === PHONE) await page.keyboard.press('Escape');
      await page.locator('.shell:not(.shell--drawer-open)').waitFor();

      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      await page.getByRole('group', { name: /^Clear this conversation/ }).waitFor();
      await expectAccessible(page, `chat asking to confirm Clear (${name})`);
      await page.getByRole('button', { name: 'Keep', exact: true }).click();

      await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('dialog', { name: 'Sign out?' }).waitFor();
      await expectAccessible(page, `the Sign out dialog (${name})`);
      expect(errors).toEqual([]);
    });

    test(`S6 chat: a failed turn's notice, a new session, a reply while it streams and after Cancel (${name})`, async () => {
      const { page, errors } = await ui.open({ device, hash: `#/sessions/${failedSession}` });
      await conversation(page).getByText('Turn failed: Model API error.', { exact: false }).waitFor();
      await expectAccessible(page, `chat with a failed turn (${name})`);

      await page.goto(`${ui.server.url}/#/sessions/no-such-session`);
      await page.getByRole('heading', { level: 1, name: 'Session not found' }).waitFor();
      await expectAccessible(page, `a session that does not exist (${name})`);

      const { sessionId } = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
      await page.goto(`${ui.server.url}/#/sessions/${sessionId}`);
      await page.getByText('No messages yet.', { exact: false }).waitFor();
      await expectAccessible(page, `an empty session (${name})`);

      ui.fake.enqueue(fakeReply.hang('Working on **it**, '));
      await page.getByRole('textbox', { name: 'Message' }).fill('Do something slow');
      await page.getByRole('textbox', { name: 'Message' }).press('Enter');
      await conversation(page).getByText('Working on', { exact: false }).waitFor();
      const cancel = page.getByRole('button', { name: 'Cancel' });
      await cancel.waitFor();
      await expectAccessible(page, `a reply streaming, with Cancel (${name})`);
      await cancel.click();
      await conversation(page).getByText('Turn stopped: Cancelled.', { exact: false }).waitFor();
      await turnOver(page);
      await expectAccessible(page, `a cancelled reply (${name})`);
      // The missing session's 404s are expected; nothing else may fail.
      expect(errors.filter((error) => !error.includes('status of 404 (Not Found)'))).toEqual([]);
    });

    test(`S6 the server down: a message kept as "not sent", and a screen that cannot load (${name})`, async () => {
      const { sessionId } = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
      const { page, errors } = await ui.open({ device, hash: `#/sessions/${sessionId}` });
      await page.getByText('No messages yet.', { exact: false }).waitFor();
      await ui.stopServer();
      try {
        await page.getByRole('textbox', { name: 'Message' }).fill('Hello while the server is down');
        await page.getByRole('textbox', { name: 'Message' }).press('Enter');
        await conversation(page).getByText('Not sent.').waitFor();
        await expectAccessible(page, `a message not sent (${name})`);

        // Another screen, opened in the page while the server is still down, says it could not load.
        await page.evaluate(() => {
          window.location.hash = '#/settings/agents';
        });
        // The page's own notice (on a phone the closed session drawer holds one too, hidden).
        await page.getByRole('main').getByText('Could not load', { exact: false }).first().waitFor();
        await expectAccessible(page, `settings while the server is down (${name})`);
      } finally {
        await ui.startServer();
      }
      expect(errors.filter((error) => !SERVER_DOWN_LOAD_ERROR.test(error))).toEqual([]);
    });

    test(`S6 the groups browser with a group's tools open (${name})`, async () => {
      const { page, errors } = await ui.open({ device, hash: `#/groups?session=${markdownSession}` });
      await page.getByRole('heading', { level: 1, name: 'Tool groups' }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Google Tasks', exact: true }).waitFor();
      await expectAccessible(page, `groups (${name})`);
      const showTools = page.getByRole('button', { name: /^\d+ tools of Google Tasks$/ });
      await showTools.click();
      await waitForAttribute(showTools, 'aria-expanded', 'true');
      await page
        .locator(`#${await showTools.getAttribute('aria-controls')}`)
        .locator('.group-card__tool-description')
        .first()
        .waitFor();
      await expectAccessible(page, `groups with a tool list open (${name})`);
      expect(errors).toEqual([]);
    });

    test(`S6 settings: providers with a validation error, agents with the editor open, tools (${name})`, async () => {
      const { page, errors } = await ui.open({ device, hash: '#/settings/providers' });
      const form = page.getByRole('form', { name: 'Add a provider' });
      await form.waitFor();
      await page.getByRole('article').first().waitFor();
      await expectAccessible(page, `settings, providers (${name})`);
      await form.getByLabel('API base URL').fill('');
      await form.getByRole('button', { name: 'Add provider' }).click();
      await form.getByText('Give the provider a name.').waitFor();
      await expectAccessible(page, `settings, providers with validation errors (${name})`);

      const tabs = page.getByRole('navigation', { name: 'Settings sections' });
      await tabs.getByRole('link', { name: 'Agents' }).click();
      const agent = page.getByRole('article', { name: 'OneClaw', exact: true });
      await agent.getByRole('button', { name: 'Edit OneClaw' }).click();
      await agent.getByRole('form', { name: 'Edit OneClaw' }).waitFor();
      await expectAccessible(page, `settings, agents with the editor open (${name})`);

      await tabs.getByRole('link', { name: 'Tools' }).click();
      await page.getByRole('list', { name: 'Tool source files' }).getByRole('article').first().waitFor();
      await expectAccessible(page, `settings, tools (${name})`);
      expect(errors).toEqual([]);
    });

    test(`S6 the audit view: chart, its table, requests, an opened event and the text audit (${name})`, async () => {
      const { page, errors } = await ui.open({ device, hash: `#/sessions/${markdownSession}/audit` });
      await page.getByRole('heading', { name: 'Timeline' }).waitFor();
      await page.locator('table.token-table').waitFor();
      const first = page.locator('ol.timeline > li').first();
      await first.locator('summary').click();
      await first.locator('pre').waitFor();
      await page.getByRole('button', { name: 'Show the text audit' }).click();
      await page.getByRole('region', { name: 'Text audit' }).getByLabel('Text audit report').waitFor();
      await expectAccessible(page, `audit (${name})`);
      expect(errors).toEqual([]);
    });
  });
});

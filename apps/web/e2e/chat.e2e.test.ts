import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeGate, fakeReply } from '@oneclaw/server/testing';
import type { Page } from 'playwright-core';
import {
  API_TOKEN,
  CHROMIUM_SKIP_REASON,
  chromiumAvailable,
  DESKTOP,
  PHONE,
  recordShownStates,
  startSession,
  startUiHarness,
  waitForAttribute,
  waitForCount,
  waitForText,
  WIDE_DESKTOP,
  type UiHarness,
} from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(90_000);

function messageBox(page: Page) {
  return page.getByRole('textbox', { name: 'Message' });
}

/** Types a message and presses Enter, as a user would. */
async function send(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}

/** The transcript is not busy any more: the turn is over (the page then re-reads the session). */
async function turnOver(page: Page): Promise<void> {
  await page.locator('[aria-labelledby="transcript-title"][aria-busy="false"]').waitFor();
}

/** Until keyboard focus is on the element `selector` matches (a focus move waits for a render). */
async function waitForFocus(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((css) => document.activeElement !== null && document.activeElement === document.querySelector(css), selector, { timeout: 5000 });
}

async function hasFocus(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((css) => document.activeElement !== null && document.activeElement === document.querySelector(css), selector);
}

function conversation(page: Page) {
  return page.getByRole('list', { name: 'Conversation' });
}

function chips(page: Page) {
  return page.getByRole('list', { name: 'Tool groups' });
}

function toolCard(page: Page, toolName: string) {
  return conversation(page).getByRole('button', { name: toolCardName(toolName) });
}

function toolCardName(toolName: string): RegExp {
  return new RegExp(`Tool call ${toolName}\\b`);
}

async function api<T>(ui: UiHarness, path: string): Promise<T> {
  const response = await fetch(`${ui.server.url}${path}`, { headers: { authorization: `Bearer ${API_TOKEN}` } });
  return (await response.json()) as T;
}

describeUi(chromiumAvailable ? 'S6 chat and tool groups in the browser (real server, FAKE model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUiHarness();
  });
  afterAll(async () => {
    await ui?.close();
  });

  test("S6: with no session yet, #/ shows the new-session draft; a sent message creates the session, shows at once as plain text and the fake model's reply streams in as safe markdown (table, list, links, highlighted code with a copy button; model HTML shown as text)", async () => {
    const { page, context, errors } = await ui.open({ device: DESKTOP });
    await page.getByRole('heading', { level: 1, name: 'New session' }).waitFor();

    // Chunks end mid-construct (inside a table row, a list item, a fence), as streaming does.
    ui.fake.enqueue(
      fakeReply.text([
        'Hello ',
        'from the fake model.\n',
        'See https://example.com/docs. ',
        '<b>not bold</b> <script>window.injected = true</script>\n\n',
        '| Tool | Calls |\n|:--|--:|\n| ',
        'pdf_info | 3 |\n\n',
        '- first item\n- second ',
        'item\n\n',
        '[a safe link](https://example.com/safe) and [a bad one](javascript:alert(1))\n\n',
        '```ts\nconst answer',
        ' = 42;\n```\n',
      ]),
    );
    const box = messageBox(page);
    await box.fill('First line **not markdown**');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    expect(await box.inputValue()).toBe('First line **not markdown**\nsecond line');
    await box.press('Enter');

    // The user's own text stays plain text: no markdown applied to it.
    await conversation(page).getByText('First line **not markdown**\nsecond line').waitFor();
    await conversation(page).getByText('from the fake model.', { exact: false }).waitFor();
    await turnOver(page);
    expect(await box.inputValue()).toBe('');

    const reply = conversation(page).getByRole('listitem').filter({ hasText: 'Hello from the fake model.' });
    await reply.locator('code').filter({ hasText: 'const answer = 42;' }).waitFor();
    // Model HTML is text: shown literally, no element made from it, nothing run.
    expect(await reply.textContent()).toContain('<b>not bold</b> <script>window.injected = true</script>');
    expect(await reply.locator('b, script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();

    const table = reply.getByRole('table');
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Tool', 'Calls']);
    expect(await table.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(['pdf_info', '3']);
    expect(await table.getByRole('cell', { name: '3' }).evaluate((el) => getComputedStyle(el).textAlign)).toBe('right');

    const bullets = reply.getByRole('list').getByRole('listitem');
    await waitForCount(bullets, 2);
    expect(await bullets.allTextContents()).toEqual(['first item', 'second item']);

    for (const [name, href] of [
      ['https://example.com/docs', 'https://example.com/docs'],
      ['a safe link', 'https://example.com/safe'],
    ]) {
      const link = reply.getByRole('link', { name, exact: true });
      expect(await link.getAttribute('href')).toBe(href);
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await link.getAttribute('target')).toBe('_blank');
    }
    // A javascript: target is no link at all: its markdown shows as text.
    expect(await reply.getByRole('link', { name: 'a bad one' }).count()).toBe(0);
    expect(await reply.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await reply.textContent()).toContain('[a bad one](javascript:alert(1))');

    const code = reply.locator('pre code.hljs.language-ts');
    expect(await code.locator('.hljs-keyword').allTextContents()).toEqual(['const']);
    expect(await code.locator('.hljs-number').allTextContents()).toEqual(['42']);
    // Highlighting comes from the stylesheet (classes only): the keyword has its own colour.
    const [keywordColour, plainColour] = await code.evaluate((el) => [getComputedStyle(el.querySelector('.hljs-keyword')!).color, getComputedStyle(el).color]);
    expect(keywordColour).not.toBe(plainColour);

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.server.url });
    const copy = reply.getByRole('button', { name: 'Copy code' });
    const shown = await recordShownStates(page, 'button.code-block__copy');
    await copy.click();
    const copied = reply.locator('button.code-block__copy');
    await shown.waitFor({ label: 'Code copied', text: 'Copied' });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const answer = 42;\n');
    // The button offers to copy again afterwards.
    await waitForText(copied, 'Copy');
    await page.getByRole('status').filter({ hasText: 'The assistant replied' }).waitFor({ state: 'attached' });

    // The session list follows: the title is the first message, and it is the current one.
    const current = page.getByRole('complementary', { name: 'Sessions' }).getByRole('link', { name: /First line \*\*not markdown\*\* second line/ });
    await current.waitFor();
    expect(await current.getAttribute('aria-current')).toBe('page');
    await page.getByRole('heading', { level: 1, name: 'First line **not markdown** second line' }).waitFor();
    expect(errors).toEqual([]);
  });

  test.each([
    ['a 1440 x 900 desktop', WIDE_DESKTOP],
    ['a 390 x 844 phone', PHONE],
  ] as const)(
    'S6 layout on %s: a conversation longer than the screen scrolls inside the transcript; the page does not scroll, the header and the composer stay in view',
    async (_name, device) => {
      const { sessionId } = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
      const { page, errors } = await ui.open({ device, hash: `#/sessions/${encodeURIComponent(sessionId)}` });
      await page.getByText('No messages yet.', { exact: false }).waitFor();

      // Several turns, so the visually hidden "You:"/"Assistant:" labels sit far below the fold.
      const lines = Array.from({ length: 12 }, (_, i) => `- point ${i + 1}`).join('\n');
      for (let turn = 1; turn <= 4; turn++) {
        ui.fake.enqueue(fakeReply.text(`Answer ${turn}:\n\n${lines}`));
        await send(page, `Question ${turn}`);
        await conversation(page).getByText(`Answer ${turn}:`).waitFor();
        await turnOver(page);
      }

      const transcript = page.locator('[aria-labelledby="transcript-title"]');
      // The condition the rest depends on: the conversation no longer fits its box.
      await transcript.evaluate(
        (el) =>
          new Promise<void>((resolve) => {
            const check = () => (el.scrollHeight > el.clientHeight ? resolve() : requestAnimationFrame(check));
            check();
          }),
      );
      const layout = await page.evaluate(() => {
        const rect = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
        // Try to scroll the page itself, as a finger or a wheel would.
        window.scrollTo(0, document.documentElement.scrollHeight);
        const scroller = document.querySelector('[aria-labelledby="transcript-title"]')!;
        return {
          innerHeight: window.innerHeight,
          pageScrollHeight: document.scrollingElement!.scrollHeight,
          pageScrollY: window.scrollY,
          topbar: rect('.topbar'),
          header: rect('.chat__header'),
          composer: rect('.composer'),
          transcript: { scrollHeight: scroller.scrollHeight, clientHeight: scroller.clientHeight },
        };
      });
      expect(layout.pageScrollHeight).toBeLessThanOrEqual(layout.innerHeight);
      expect(layout.pageScrollY).toBe(0);
      for (const part of [layout.topbar, layout.header, layout.composer]) {
        expect(part.top).toBeGreaterThanOrEqual(0);
        expect(part.bottom).toBeLessThanOrEqual(layout.innerHeight);
      }
      expect(layout.transcript.scrollHeight).toBeGreaterThan(layout.transcript.clientHeight);
      expect(layout.composer.top).toBeGreaterThan(layout.header.bottom);
      expect(errors).toEqual([]);
    },
  );

  test('S6: the fake model loads a group and calls its tool; cards expand to arguments and results, the chip appears, and all of it survives a reload and a server restart; the chip unloads from the UI', async () => {
    const { page, errors } = await ui.open({ device: DESKTOP });
    ui.fake.enqueue(
      fakeReply.toolCall('load_tool_group', { group_name: 'scheduled_tasks' }),
      fakeReply.toolCall('list_scheduled_tasks', {}, 'Looking at your schedule.'),
      fakeReply.text('You have no scheduled tasks.'),
    );
    const sessionId = await startSession(page, 'What is scheduled?');
    await conversation(page).getByText('You have no scheduled tasks.').waitFor();
    await turnOver(page);

    const loadCard = toolCard(page, 'load_tool_group');
    expect(await loadCard.textContent()).toContain('Done');
    expect(await loadCard.getAttribute('aria-expanded')).toBe('false');
    await loadCard.click();
    await waitForAttribute(loadCard, 'aria-expanded', 'true');
    const loadBody = page.locator(`#${await loadCard.getAttribute('aria-controls')}`);
    await loadBody.getByText('"group_name": "scheduled_tasks"').waitFor();
    await loadBody.getByText('list_scheduled_tasks', { exact: false }).waitFor();
    await conversation(page).getByText('Loaded the tool group scheduled_tasks').waitFor();

    const listCard = toolCard(page, 'list_scheduled_tasks');
    expect(await listCard.textContent()).toMatch(/Done\s*\d+(\.\d+)? m?s/);
    await chips(page).getByRole('listitem').filter({ hasText: 'scheduled_tasks' }).waitFor();

    // A reload builds the same transcript, cards and chips from the stored session.
    await page.reload();
    await conversation(page).getByText('What is scheduled?').waitFor();
    await conversation(page).getByText('Looking at your schedule.').waitFor();
    await conversation(page).getByText('You have no scheduled tasks.').waitFor();
    await toolCard(page, 'load_tool_group').waitFor();
    await toolCard(page, 'list_scheduled_tasks').click();
    const listBody = page.locator(`#${await toolCard(page, 'list_scheduled_tasks').getAttribute('aria-controls')}`);
    await listBody.getByRole('heading', { name: 'Result' }).waitFor();
    await chips(page).getByRole('listitem').filter({ hasText: 'scheduled_tasks' }).waitFor();

    // The loaded group is part of the session's event stream, not of the server's memory.
    await ui.restartServer();
    await page.reload();
    await chips(page).getByRole('listitem').filter({ hasText: 'scheduled_tasks' }).waitFor();
    await conversation(page).getByText('You have no scheduled tasks.').waitFor();

    await page.getByRole('button', { name: 'Unload scheduled_tasks' }).click();
    await page.getByText('None loaded: core tools only.').waitFor();
    const view = await api<{ loadedGroups: string[] }>(ui, `/api/sessions/${encodeURIComponent(sessionId)}`);
    expect(view.loadedGroups).toEqual([]);
    await page.reload();
    await page.getByText('None loaded: core tools only.').waitFor();
    expect(errors).toEqual([]);
  });

  test('S6: "Add group" loads a group as a chip; /clear empties the conversation and the chips; the Clear button asks first', async () => {
    const { page, errors } = await ui.open({ device: DESKTOP });
    ui.fake.enqueue(fakeReply.text('Noted.'));
    const sessionId = await startSession(page, 'Remember this');
    await conversation(page).getByText('Noted.').waitFor();
    await turnOver(page);

    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByLabel('Group to load').selectOption('pdf');
    await page.getByRole('button', { name: 'Load group' }).click();
    await chips(page).getByRole('listitem').filter({ hasText: 'pdf' }).waitFor();

    await send(page, '/clear');
    await page.getByText('No messages yet.', { exact: false }).waitFor();
    await page.getByText('None loaded: core tools only.').waitFor();
    expect(await conversation(page).getByRole('listitem').count()).toBe(0);
    await page.getByRole('heading', { level: 1, name: 'New conversation' }).waitFor();
    expect((await api<{ loadedGroups: string[]; messages: unknown[] }>(ui, `/api/sessions/${encodeURIComponent(sessionId)}`)).messages).toEqual([]);

    // The Clear button: Keep changes nothing, Clear conversation clears.
    ui.fake.enqueue(fakeReply.text('Again.'));
    await send(page, 'Once more');
    await conversation(page).getByText('Again.').waitFor();
    await turnOver(page);
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByLabel('Group to load').selectOption('config');
    await page.getByRole('button', { name: 'Load group' }).click();
    await chips(page).getByRole('listitem').filter({ hasText: 'config' }).waitFor();
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByRole('button', { name: 'Keep' }).click();
    await conversation(page).getByText('Again.').waitFor();
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    const confirm = page.getByRole('button', { name: 'Clear conversation' });
    expect(await confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    await confirm.click();
    await page.getByText('No messages yet.', { exact: false }).waitFor();
    await page.getByText('None loaded: core tools only.').waitFor();
    expect(errors).toEqual([]);
  });

  test('S6 on a 390 x 844 phone: a markdown reply (wide table, long code line, list, link) renders and stays inside the screen; the long code line scrolls in its own box, and Copy code works', async () => {
    const { sessionId } = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
    const { page, context, errors } = await ui.open({ device: PHONE, hash: `#/sessions/${encodeURIComponent(sessionId)}` });
    await page.getByText('No messages yet.', { exact: false }).waitFor();
    const wideRow = Array.from({ length: 8 }, (_, i) => `column number ${i + 1}`);
    ui.fake.enqueue(
      fakeReply.text(
        [
          'A wide table:\n\n',
          `| ${wideRow.join(' | ')} |\n|${wideRow.map(() => '---').join('|')}|\n| ${wideRow.map((_, i) => `value ${i + 1}`).join(' | ')} |\n\n`,
          '- one\n- two\n\n',
          '[the docs](https://example.com/docs)\n\n',
          '```js\n',
          `const line = '${'x'.repeat(160)}';\n`,
          '```\n',
        ].join(''),
      ),
    );
    await send(page, 'Show me markdown on a phone');
    const reply = conversation(page).getByRole('listitem').filter({ hasText: 'A wide table:' });
    await reply.getByRole('table').waitFor();
    await reply.locator('pre code.hljs').waitFor();
    await turnOver(page);
    expect(await reply.getByRole('table').getByRole('columnheader').count()).toBe(8);
    await waitForCount(reply.getByRole('list').getByRole('listitem'), 2);
    expect(await reply.getByRole('link', { name: 'the docs' }).getAttribute('href')).toBe('https://example.com/docs');

    // Nothing is wider than the phone: the table wraps or scrolls in its own box, the long code
    // line scrolls inside its block.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(
      await reply.getByRole('table').evaluate((el) => el.getBoundingClientRect().left >= 0 && (el.parentElement?.getBoundingClientRect().right ?? Infinity) <= window.innerWidth),
    ).toBe(true);
    const code = await reply
      .locator('pre')
      .first()
      .evaluate((el) => {
        // The block itself scrolls, or the wrapper around it inside the reply.
        let scroller: Element | null = el;
        while (scroller && scroller.scrollWidth <= scroller.clientWidth && !scroller.classList.contains('msg')) scroller = scroller.parentElement;
        const target = scroller ?? el;
        return { scrollWidth: target.scrollWidth, clientWidth: target.clientWidth, right: target.getBoundingClientRect().right, isReply: target.classList.contains('msg') };
      });
    expect(code.isReply).toBe(false);
    expect(code.scrollWidth).toBeGreaterThan(code.clientWidth);
    expect(code.right).toBeLessThanOrEqual(390);

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.server.url });
    const shown = await recordShownStates(page, 'button.code-block__copy');
    await reply.getByRole('button', { name: 'Copy code' }).click();
    await shown.waitFor({ label: 'Code copied', text: 'Copied' });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`const line = '${'x'.repeat(160)}';\n`);
    expect(errors).toEqual([]);
  });

  test.each([
    ['a 1440 x 900 desktop', DESKTOP],
    ['a 390 x 844 phone', PHONE],
  ] as const)(
    'S6 on %s: a running turn shows its streamed text and the group it loaded while it runs, and can be cancelled; what streamed is kept, the reason is shown, and both stay after a reload',
    async (_name, device) => {
      const { page, errors } = await ui.open({ device });
      ui.fake.enqueue(fakeReply.toolCall('load_tool_group', { group_name: 'pdf' }), fakeReply.hang('Working on it, '));
      if (device === PHONE) {
        // #/ moves on to the newest session, and any navigation closes the drawer: wait for it,
        // then open the drawer, where "New session" is on a phone.
        await page.waitForURL((url) => url.hash.startsWith('#/sessions/'));
        const menu = page.getByRole('button', { name: 'Sessions' });
        await menu.click();
        await waitForAttribute(menu, 'aria-expanded', 'true');
      }
      await startSession(page, 'Do something slow');
      await conversation(page).getByText('Working on it,').waitFor();
      const cancel = page.getByRole('button', { name: 'Cancel' });
      await cancel.waitFor();
      // group_loaded arrived mid-turn: the chip is there before the turn ends.
      await chips(page).getByRole('listitem').filter({ hasText: 'pdf' }).waitFor();
      expect(await cancel.isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
      expect(await page.locator('[aria-labelledby="transcript-title"]').getAttribute('aria-busy')).toBe('true');

      await cancel.click();
      await conversation(page).getByText('Turn stopped: Cancelled.', { exact: false }).waitFor();
      await turnOver(page);
      // The partial reply was kept, so the status line says the assistant replied, not only that the turn stopped.
      await page.getByRole('status').filter({ hasText: 'The assistant replied (stopped early: Cancelled): Working on it,' }).waitFor({ state: 'attached' });
      await cancel.waitFor({ state: 'detached' });

      await page.reload();
      await conversation(page).getByText('Turn stopped: Cancelled.', { exact: false }).waitFor();
      await conversation(page).getByText('Do something slow').waitFor();
      // What had streamed before the cancel is recorded (partial reply), so it survives the reload.
      await conversation(page).getByText('Working on it,').waitFor();

      // The session takes new messages again.
      ui.fake.enqueue(fakeReply.text('Back again.'));
      await send(page, 'Still there?');
      await conversation(page).getByText('Back again.').waitFor();
      expect(errors).toEqual([]);
    },
  );

  test('S6: a turn running in another window is shown as such, sending waits, and it can be cancelled from here', async () => {
    const first = await ui.open({ device: DESKTOP });
    ui.fake.enqueue(fakeReply.hang('Thinking hard, '));
    const sessionId = await startSession(first.page, 'A long question');
    await first.page.getByRole('button', { name: 'Cancel' }).waitFor();

    const second = await ui.open({ device: PHONE, hash: `#/sessions/${encodeURIComponent(sessionId)}` });
    const notice = second.page.getByText('This session is answering a message sent from another window', { exact: false });
    await notice.waitFor();
    await messageBox(second.page).fill('Me too');
    expect(await second.page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    // Clearing would be refused too (409 turn_in_progress): not offered while that turn runs.
    expect(await second.page.getByRole('button', { name: 'Clear', exact: true }).isDisabled()).toBe(true);
    await second.page.getByRole('button', { name: 'Cancel it' }).click();

    await conversation(first.page).getByText('Turn stopped: Cancelled.', { exact: false }).waitFor();
    // The other window follows on its own once the turn is over, and can send again.
    await conversation(second.page).getByText('Turn stopped: Cancelled.', { exact: false }).waitFor();
    await notice.waitFor({ state: 'detached' });
    ui.fake.enqueue(fakeReply.text('Now it is your turn.'));
    await second.page.getByRole('button', { name: 'Send' }).click();
    await conversation(second.page).getByText('Now it is your turn.').waitFor();
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
  });

  test('S6: a failed tool call is an error card (icon, word and style); a model API failure stops the turn with its reason and detail', async () => {
    const { page, errors } = await ui.open({ device: DESKTOP });
    // pdf_info belongs to a group that is not loaded: the engine answers tool_not_available.
    ui.fake.enqueue(fakeReply.toolCall('pdf_info', { path: 'report.pdf' }), fakeReply.text('That tool is not loaded.'));
    await startSession(page, 'Read report.pdf');
    await conversation(page).getByText('That tool is not loaded.').waitFor();
    await turnOver(page);

    const card = toolCard(page, 'pdf_info');
    expect(await card.textContent()).toContain('Error: tool_not_available');
    // The error icon is drawn (an inline SVG), not a font glyph some devices lack.
    await card.locator('.tool-card__icon svg').waitFor();
    const cardItem = conversation(page)
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: toolCardName('pdf_info') }) });
    expect(await cardItem.getAttribute('class')).toContain('tool-card--error');
    const colours = await cardItem.evaluate((el) => {
      // The danger colour as the page resolves it, to compare with the card's border.
      const probe = document.createElement('span');
      probe.style.color = 'var(--danger)';
      document.body.append(probe);
      const danger = getComputedStyle(probe).color;
      probe.remove();
      return { border: getComputedStyle(el).borderLeftColor, danger };
    });
    expect(colours.border).toBe(colours.danger);
    // The card opens from the keyboard as well.
    await card.focus();
    await page.keyboard.press('Enter');
    await waitForAttribute(card, 'aria-expanded', 'true');
    const body = page.locator(`#${await card.getAttribute('aria-controls')}`);
    await body.getByRole('heading', { name: 'Error (tool_not_available)' }).waitFor();
    await body.getByText('pdf', { exact: false }).first().waitFor();

    // A 400 from the model API is not retried: the turn stops with provider_error.
    ui.fake.enqueue(fakeReply.error(400, { message: 'fake model refuses this request' }));
    await send(page, 'Try again');
    const failure = conversation(page).getByRole('listitem').filter({ hasText: 'Turn failed: Model API error.' });
    await failure.waitFor();
    expect(await failure.textContent()).toContain('fake model refuses this request');
    await turnOver(page);
    await page.reload();
    await conversation(page).getByText('Turn failed: Model API error.', { exact: false }).waitFor();
    expect(errors).toEqual([]);
  });

  test("S6: the groups browser lists every group, searches, shows a group's tools with descriptions, and loads one into the session", async () => {
    const { page, errors } = await ui.open({ device: DESKTOP });
    ui.fake.enqueue(fakeReply.text('Ready.'));
    const sessionId = await startSession(page, 'Hello');
    await turnOver(page);
    const { groups } = await api<{ groups: { name: string; displayName: string; toolNames: string[] }[] }>(ui, '/api/tool-groups');
    expect(groups.length).toBeGreaterThan(5);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
    await page.waitForURL(new RegExp(`#/groups\\?session=${encodeURIComponent(sessionId)}$`));
    await page.getByRole('heading', { level: 1, name: 'Tool groups' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: `${groups.length} groups` })
      .waitFor();
    for (const group of groups) await page.getByRole('heading', { level: 2, name: group.displayName, exact: true }).waitFor();

    await page.getByRole('searchbox', { name: 'Search groups' }).fill('gmail');
    await page
      .getByRole('status')
      .filter({ hasText: /^2 of \d+ groups$/ })
      .waitFor();
    await page.getByRole('heading', { level: 2, name: 'Google Calendar' }).waitFor({ state: 'detached' });
    await page.getByRole('searchbox', { name: 'Search groups' }).fill('');

    const tasks = groups.find((g) => g.name === 'google_tasks')!;
    const showTools = page.getByRole('button', { name: `${tasks.toolNames.length} tools of Google Tasks` });
    await showTools.click();
    await waitForAttribute(showTools, 'aria-expanded', 'true');
    const toolList = page.locator(`#${await showTools.getAttribute('aria-controls')}`);
    for (const name of tasks.toolNames) await toolList.getByText(name, { exact: true }).waitFor();
    expect(await toolList.locator('.group-card__tool-description').count()).toBe(tasks.toolNames.length);

    await page.getByRole('button', { name: 'Load into session Google Tasks' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Google Tasks', exact: true }) });
    await card.getByText('Loaded', { exact: false }).first().waitFor();
    await card.getByRole('button', { name: 'Unload Google Tasks' }).waitFor();

    await page.getByRole('link', { name: 'Back to the chat' }).click();
    await chips(page).getByRole('listitem').filter({ hasText: 'google_tasks' }).waitFor();
    expect(errors).toEqual([]);
  });

  test('S6 on a phone (390 px): the session drawer opens from the menu button, a new session runs a turn with a tool card and a chip, and the list marks it', async () => {
    const { page, errors } = await ui.open({ device: PHONE });
    const menu = page.getByRole('button', { name: 'Sessions' });
    // #/ opens the newest session; wait for it, so the new one is told apart.
    await page.waitForURL((url) => url.hash.startsWith('#/sessions/'));
    await menu.click();
    await waitForAttribute(menu, 'aria-expanded', 'true');
    ui.fake.enqueue(fakeReply.toolCall('load_tool_group', { group_name: 'pdf' }), fakeReply.text('The PDF tools are ready.'));
    await startSession(page, 'Get ready for PDFs');
    await page.locator('.shell:not(.shell--drawer-open)').waitFor();
    await waitForAttribute(menu, 'aria-expanded', 'false');

    await conversation(page).getByText('The PDF tools are ready.').waitFor();
    await turnOver(page);
    await chips(page).getByRole('listitem').filter({ hasText: 'pdf' }).waitFor();
    const card = toolCard(page, 'load_tool_group');
    await card.tap();
    await waitForAttribute(card, 'aria-expanded', 'true');
    await page
      .locator(`#${await card.getAttribute('aria-controls')}`)
      .getByText('"group_name": "pdf"')
      .waitFor();

    // Nothing is wider than the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await menu.click();
    await waitForAttribute(menu, 'aria-expanded', 'true');
    const current = page.getByRole('complementary', { name: 'Sessions' }).getByRole('link', { name: /Get ready for PDFs/ });
    await current.waitFor();
    expect(await current.getAttribute('aria-current')).toBe('page');
    await page.keyboard.press('Escape');
    await waitForAttribute(menu, 'aria-expanded', 'false');
    expect(errors).toEqual([]);
  });

  test("S6: a window that had not heard of another window's turn: its send and its Clear are refused (409 turn_in_progress) without the API's words; the busy notice says why, the text goes back into the box, and nothing of it stays once that turn is over", async () => {
    const first = await ui.open({ device: DESKTOP });
    ui.fake.enqueue(fakeReply.text('One.'));
    const sessionId = await startSession(first.page, 'A shared session');
    await conversation(first.page).getByText('One.').waitFor();
    await turnOver(first.page);
    // Both open before the first window sends: neither has heard of that turn.
    const hash = `#/sessions/${encodeURIComponent(sessionId)}`;
    const sender = await ui.open({ device: DESKTOP, hash });
    const clearer = await ui.open({ device: DESKTOP, hash });
    await conversation(sender.page).getByText('One.').waitFor();
    await conversation(clearer.page).getByText('One.').waitFor();

    const gate = fakeGate();
    ui.fake.enqueue({ text: 'Answer to the first window.', waitFor: gate.opened });
    await send(first.page, 'From the first window');
    // The model was asked (model_requested): the server runs the turn.
    await waitForText(first.page.locator('.waiting__model'), /\S/);

    const notice = (page: Page) => page.getByText('This session is answering a message sent from another window', { exact: false });
    await send(sender.page, 'From the second window');
    await notice(sender.page).waitFor();
    expect(await sender.page.getByRole('alert').count()).toBe(0);
    expect(await messageBox(sender.page).inputValue()).toBe('From the second window');
    expect(await sender.page.getByRole('button', { name: 'Clear', exact: true }).isDisabled()).toBe(true);

    await clearer.page.getByRole('button', { name: 'Clear', exact: true }).click();
    await clearer.page.getByRole('button', { name: 'Clear conversation' }).click();
    const refusal = clearer.page.getByRole('alert').filter({ hasText: 'Not done: the session is answering a message sent from another window.' });
    await refusal.waitFor();
    await notice(clearer.page).waitFor();
    expect(await clearer.page.getByRole('alert').count()).toBe(1);

    gate.release();
    await conversation(first.page).getByText('Answer to the first window.').waitFor();
    // Both follow on their own once the turn is over (they re-read while it runs).
    await conversation(sender.page).getByText('Answer to the first window.').waitFor();
    await notice(sender.page).waitFor({ state: 'detached' });
    await refusal.waitFor({ state: 'detached' });
    expect(await sender.page.getByRole('alert').count()).toBe(0);
    expect(await conversation(sender.page).getByText('turn_in_progress', { exact: false }).count()).toBe(0);
    expect(await conversation(clearer.page).getByText('One.').count()).toBe(1);
    ui.fake.enqueue(fakeReply.text('Now the second window.'));
    await sender.page.getByRole('button', { name: 'Send' }).click();
    await conversation(sender.page).getByText('Now the second window.').waitFor();
    // Each refusal is one failed request in the console, and nothing else.
    const refused = 'console: Failed to load resource: the server responded with a status of 409 (Conflict)';
    expect(first.errors).toEqual([]);
    expect(sender.errors).toEqual([refused]);
    expect(clearer.errors).toEqual([refused]);
  });

  test("S6 focus: a first message sent from the draft with Enter leaves focus in the session page's message box; a mouse Send keeps it in the box, and the end of the turn does not take it from what the user went on to type in; Clear gives it back (the box after confirming, the Clear button after Keep)", async () => {
    const { page, errors } = await ui.open({ device: DESKTOP, hash: '#/new' });
    await page.getByRole('heading', { level: 1, name: 'New session' }).waitFor();
    const first = fakeGate();
    ui.fake.enqueue({ text: 'First answer.', waitFor: first.opened });
    await send(page, 'Sent from the keyboard');
    await page.waitForURL((url) => url.hash.startsWith('#/sessions/'));
    await waitForFocus(page, '#composer-text');
    // The next message can be typed while the first reply is awaited.
    await page.keyboard.type('Next one');
    expect(await messageBox(page).inputValue()).toBe('Next one');
    first.release();
    await conversation(page).getByText('First answer.').waitFor();
    await turnOver(page);

    const second = fakeGate();
    ui.fake.enqueue({ text: 'Second answer.', waitFor: second.opened });
    await messageBox(page).fill('Sent with the mouse');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    expect(await hasFocus(page, '#composer-text')).toBe(true);
    // The user goes on to search while the reply is awaited; its end must not pull focus back.
    const search = page.getByRole('searchbox', { name: 'Search sessions' });
    await search.click();
    await page.keyboard.type('Sent');
    second.release();
    await conversation(page).getByText('Second answer.').waitFor();
    // Edit shows on the message once the page has re-read the stored session: the send is over.
    await conversation(page).getByRole('listitem').filter({ hasText: 'Sent with the mouse' }).getByRole('button', { name: 'Edit' }).waitFor();
    expect(await hasFocus(page, 'input[type="search"]')).toBe(true);
    await page.keyboard.type(' with');
    expect(await search.inputValue()).toBe('Sent with');
    await search.fill('');

    // Clear from the keyboard: Escape (Keep) returns to Clear; confirming goes on to the message box.
    const clear = page.getByRole('button', { name: 'Clear', exact: true });
    await clear.focus();
    await page.keyboard.press('Enter');
    await waitForFocus(page, '.chat__confirm .button--danger');
    await page.keyboard.press('Escape');
    await waitForFocus(page, '.chat__actions button');
    expect(await page.locator('.chat__actions button').innerText()).toBe('Clear');
    await page.keyboard.press('Enter');
    await waitForFocus(page, '.chat__confirm .button--danger');
    await page.keyboard.press('Enter');
    await page.getByText('No messages yet.', { exact: false }).waitFor();
    await waitForFocus(page, '#composer-text');
    expect(errors).toEqual([]);
  });

  test('S6: leaving the page while its turn runs asks first (beforeunload: the server would cancel the turn); with no turn running it closes without asking', async () => {
    const { page, errors } = await ui.open({ device: DESKTOP });
    const gate = fakeGate();
    ui.fake.enqueue({ text: 'Still here.', waitFor: gate.opened });
    await startSession(page, 'Do not go yet');
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    const asked: string[] = [];
    const dialog = page.waitForEvent('dialog');
    const closed = page.waitForEvent('close');
    page.on('dialog', (d) => {
      asked.push(d.type());
    });
    await page.close({ runBeforeUnload: true });
    const first = await Promise.race([dialog, closed.then(() => undefined)]);
    expect(first?.type()).toBe('beforeunload');
    // Stay on the page: the turn goes on.
    await first!.dismiss();
    gate.release();
    await conversation(page).getByText('Still here.').waitFor();
    await turnOver(page);
    page.removeAllListeners('dialog');
    page.on('dialog', (d) => {
      asked.push(d.type());
      void d.accept();
    });
    await page.close({ runBeforeUnload: true });
    await closed;
    expect(asked).toEqual(['beforeunload']);
    expect(errors).toEqual([]);
  });

  test('S6: renaming the open session while its turn runs shows the new title in the chat header at once', async () => {
    const { page, errors } = await ui.open({ device: DESKTOP });
    const gate = fakeGate();
    ui.fake.enqueue({ text: 'Answered under the new title.', waitFor: gate.opened });
    await startSession(page, 'Title before the rename');
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    const side = page.getByRole('complementary', { name: 'Sessions' });
    await side.getByRole('button', { name: 'Rename Title before the rename' }).click();
    await side.getByRole('textbox', { name: /^New title for/ }).fill('Renamed during the turn');
    await side.getByRole('button', { name: 'Save' }).click();
    // The list shows it after reading the sessions again; the header was set from the rename's answer before.
    await side.getByRole('link', { name: /Renamed during the turn/ }).waitFor();
    expect(await page.locator('#chat-title').innerText()).toBe('Renamed during the turn');
    expect(await page.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(true);
    gate.release();
    await conversation(page).getByText('Answered under the new title.').waitFor();
    await turnOver(page);
    await waitForText(page.locator('#chat-title'), 'Renamed during the turn');
    expect(errors).toEqual([]);
  });

  test('S6: #/ opens the session with the newest activity', async () => {
    const { page, errors } = await ui.open({ device: DESKTOP });
    const { sessions } = await api<{ sessions: { sessionId: string }[] }>(ui, '/api/sessions');
    await page.waitForURL(new RegExp(`#/sessions/${encodeURIComponent(sessions[0]!.sessionId)}$`));
    expect(errors).toEqual([]);
  });
});

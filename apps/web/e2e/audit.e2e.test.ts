import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fakeReply } from '@oneclaw/server/testing';
import type { Page } from 'playwright-core';
import { API_TOKEN, CHROMIUM_SKIP_REASON, chromiumAvailable, DESKTOP, PHONE, startUiHarness, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(90_000);

interface AuditAnswer {
  events: { revision: number; type: string }[];
  requests: {
    number: number;
    revision: number;
    schemaTokens: number;
    toolNames: string[];
    tools: { name: string; reason: { kind: string; groupName?: string; loadedAtRevision?: number } }[];
  }[];
}

describeUi(chromiumAvailable ? 'S3+S6 audit view in the browser (real server, FAKE OpenAI-compatible model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  let sessionId: string;
  let groupName: string;
  let audit: AuditAnswer;
  let baseline: number;

  beforeAll(async () => {
    ui = await startUiHarness();
    const groups = await ui.api<{ groups: { name: string; enabled: boolean; toolNames: string[] }[]; schemaTokens: { all: number } }>('GET', '/api/tool-groups');
    // Any enabled group with tools will do; pdf is small and always shipped.
    groupName = (groups.groups.find((g) => g.name === 'pdf' && g.enabled) ?? groups.groups.find((g) => g.enabled && g.toolNames.length > 0))!.name;
    baseline = groups.schemaTokens.all;

    // Driven through the HTTP API (not the chat UI): turn 1 loads a group then answers, turn 2 answers.
    const session = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
    sessionId = session.sessionId;
    ui.fake.enqueue(fakeReply.toolCall('load_tool_group', { group_name: groupName }), fakeReply.text('The group is loaded.'), fakeReply.text('Still here.'));
    await ui.api('POST', `/api/sessions/${sessionId}/messages`, { text: `Load the ${groupName} tools please` });
    await ui.api('POST', `/api/sessions/${sessionId}/messages`, { text: 'And now?' });
    audit = await ui.api<AuditAnswer>('GET', `/api/sessions/${sessionId}/audit`);
  });
  afterAll(async () => {
    await ui?.close();
  });

  async function openAudit(device: typeof DESKTOP | typeof PHONE): Promise<{ page: Page; errors: string[] }> {
    const opened = await ui.open({ hash: `#/sessions/${sessionId}/audit`, device });
    await opened.page.getByRole('heading', { name: 'Timeline' }).waitFor();
    return opened;
  }

  test('S3 the session recorded what the test expects: three model requests, the group added from the second on', () => {
    expect(audit.requests).toHaveLength(3);
    expect(audit.requests[0]!.tools.every((t) => t.reason.kind === 'core')).toBe(true);
    expect(audit.requests[1]!.tools.some((t) => t.reason.kind === 'group' && t.reason.groupName === groupName)).toBe(true);
    expect(baseline).toBeGreaterThan(Math.max(...audit.requests.map((r) => r.schemaTokens)));
  });

  test.each([
    ['DESKTOP', DESKTOP],
    ['PHONE', PHONE],
  ] as const)('S3+S6 the audit shows the timeline in order, each request with its tools grouped by why (%s)', async (_label, device) => {
    const { page, errors } = await openAudit(device);
    await expect(page.getByRole('link', { name: 'Back to the chat' }).getAttribute('href')).resolves.toBe(`#/sessions/${sessionId}`);

    // The timeline: one item per event, in revision order, with its type.
    const items = page.locator('ol.timeline > li');
    await expect(items.count()).resolves.toBe(audit.events.length);
    const types = await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-type')));
    expect(types).toEqual(audit.events.map((e) => e.type));
    // Opening one shows its raw data as JSON.
    const started = items.first();
    await started.locator('summary').click();
    const raw = JSON.parse((await started.locator('pre').textContent()) ?? '') as { type: string; data: { sessionId: string } };
    expect(raw).toMatchObject({ type: 'SessionStarted', data: { sessionId } });

    // Per request: the tools, grouped by why they were sent.
    await expect(page.getByRole('heading', { level: 3, name: /^Request #\d+/ }).count()).resolves.toBe(audit.requests.length);
    for (const request of audit.requests) {
      const card = page.getByRole('listitem', { name: new RegExp(`^Request #${request.number}\\b`) });
      const core = request.tools.filter((t) => t.reason.kind === 'core').map((t) => t.name);
      const coreList = card.getByRole('list', { name: 'Core tools' });
      await expect(coreList.getByRole('listitem').allTextContents()).resolves.toEqual(core);
      const fromGroup = request.tools.filter((t) => t.reason.kind === 'group');
      if (fromGroup.length > 0) {
        const reason = fromGroup[0]!.reason;
        const groupList = card.getByRole('list', { name: new RegExp(`^Group ${groupName}, loaded at revision ${reason.loadedAtRevision} by call `) });
        await expect(groupList.getByRole('listitem').allTextContents()).resolves.toEqual(fromGroup.map((t) => t.name));
      } else {
        await expect(card.getByRole('list', { name: /^Group / }).count()).resolves.toBe(0);
      }
      await expect(card.textContent()).resolves.toContain(`${request.schemaTokens.toLocaleString('en-US')} schema tokens`);
    }
    expect(errors).toEqual([]);
  });

  test.each([
    ['DESKTOP', DESKTOP],
    ['PHONE', PHONE],
  ] as const)('S3+S6 the chart has one bar per request at its recorded schema tokens and the all-tools baseline from GET /api/tool-groups (%s)', async (_label, device) => {
    const { page, errors } = await openAudit(device);
    const chart = page.getByRole('img', { name: /^Tool-schema tokens per model request: 3 model requests/ });
    await chart.waitFor();
    const label = (await chart.getAttribute('aria-label')) ?? '';
    expect(label).toContain(`Sending all tools would take ${baseline.toLocaleString('en-US')} tokens per request`);

    const bars = await chart
      .locator('rect[data-tokens]')
      .evaluateAll((rects) =>
        rects.map((r) => ({ tokens: Number(r.getAttribute('data-tokens')), height: Number(r.getAttribute('height')), request: Number(r.getAttribute('data-request')) })),
      );
    expect(bars.map((b) => b.request)).toEqual(audit.requests.map((r) => r.number));
    expect(bars.map((b) => b.tokens)).toEqual(audit.requests.map((r) => r.schemaTokens));
    // Heights are proportional to the tokens: same scale for every bar.
    const perToken = bars[0]!.height / bars[0]!.tokens;
    for (const bar of bars) expect(bar.height / bar.tokens).toBeCloseTo(perToken, 5);

    const line = chart.locator('.token-chart__baseline line');
    await expect(line.getAttribute('data-tokens')).resolves.toBe(String(baseline));
    await expect(chart.locator('.token-chart__baseline text').textContent()).resolves.toBe(`All tools: ${baseline.toLocaleString('en-US')} tokens`);
    // The baseline sits above the tallest bar, as its number is larger.
    const lineY = Number(await line.getAttribute('y1'));
    const tallestTop = Math.min(...(await chart.locator('rect[data-tokens]').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('y'))))));
    expect(lineY).toBeLessThan(tallestTop);

    // The same numbers as a table with headers.
    const table = page.getByRole('table', { name: 'Tool-schema tokens per model request' });
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent)));
    expect(rows.map((r) => r[3])).toEqual(audit.requests.map((r) => r.schemaTokens.toLocaleString('en-US')));
    await expect(table.getByRole('columnheader', { name: 'Schema tokens' }).count()).resolves.toBe(1);

    if (device === PHONE) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
    expect(errors).toEqual([]);
  });

  test('S3 the text audit (same as oneclaw replay) is fetched with the token and shown', async () => {
    const { page, errors } = await openAudit(DESKTOP);
    await page.getByRole('button', { name: 'Show the text audit' }).click();
    const text = page.getByLabel('Text audit report', { exact: true });
    await text.waitFor();
    const expected = await (await fetch(`${ui.server.url}/api/sessions/${sessionId}/audit?format=text`, { headers: { authorization: `Bearer ${API_TOKEN}` } })).text();
    await expect(text.textContent()).resolves.toBe(expected);
    expect(errors).toEqual([]);
  });

  test('S6 an unknown session gets a clear message, not a crash', async () => {
    const { page, errors } = await ui.open({ hash: '#/sessions/no-such-session/audit' });
    await page.getByRole('heading', { name: 'No such session' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('no-such-session');
    // The browser logs the 404 answers as console errors; nothing else may go wrong.
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  });
});

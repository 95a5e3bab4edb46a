import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, DESKTOP, PHONE, startUiHarness, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(180_000);

/** More events than one page of GET /api/sessions/:id/events can hold (1000 at most). */
const EVENTS = 1105;

describeUi(chromiumAvailable ? 'F4 audit of a long session pages through its events (real server, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;
  let sessionId: string;

  beforeAll(async () => {
    // Seeding takes one request per event: more than the default rate limit allows in a minute.
    ui = await startUiHarness({ env: { ONECLAW_RATE_LIMIT_PER_MINUTE: '100000' } });
    const session = await ui.api<{ sessionId: string }>('POST', '/api/sessions', {});
    sessionId = session.sessionId;
    // One event per call, no model needed: loading and unloading a group in turn.
    for (let revision = 1; revision < EVENTS; revision++) {
      if (revision % 2 === 1) await ui.api('POST', `/api/sessions/${sessionId}/tool-groups`, { groupName: 'pdf' });
      else await ui.api('DELETE', `/api/sessions/${sessionId}/tool-groups/pdf`);
    }
    const view = await ui.api<{ revision: number }>('GET', `/api/sessions/${sessionId}`);
    expect(view.revision).toBe(EVENTS - 1);
  });
  afterAll(async () => {
    await ui?.close();
  });

  test.each([
    ['DESKTOP', DESKTOP],
    ['PHONE', PHONE],
  ] as const)('F4 S3 the timeline holds every event with its raw data, the last page too (%s)', async (_label, device) => {
    const { page, errors } = await ui.open({ hash: `#/sessions/${sessionId}/audit`, device });
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    const items = page.locator('ol.timeline > li');
    await expect(items.count()).resolves.toBe(EVENTS);
    // Every entry has its raw event: none says it was missing from what was read.
    await expect(page.locator('ol.timeline pre.timeline__raw').count()).resolves.toBe(EVENTS);
    const last = items.last();
    await last.locator('summary').click();
    const raw = JSON.parse((await last.locator('pre').textContent()) ?? '') as { revision: number; type: string };
    expect(raw).toMatchObject({ revision: EVENTS - 1, type: 'ToolGroupUnloaded' });
    expect(errors).toEqual([]);
  });
});

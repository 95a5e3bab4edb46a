/**
 * The accessibility check of the browser tests: axe-core run in the page as it is on screen, and
 * a failure that lists every serious or critical violation (rule, impact, what it asks for and
 * the elements it found). Minor and moderate findings are not failures (issue 15 asks for 0
 * serious or critical issues on every screen); they are still worth a look in axe's own output.
 */
import { readFileSync } from 'node:fs';
import type { AxeResults, ImpactValue } from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once: the same file for every page. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const BLOCKING: readonly ImpactValue[] = ['serious', 'critical'];

export interface AccessibilityViolation {
  readonly id: string;
  readonly impact: ImpactValue;
  readonly help: string;
  readonly helpUrl: string;
  /** One entry per element: its CSS selector path and axe's summary of what to fix. */
  readonly nodes: readonly { readonly target: string; readonly summary: string }[];
}

/**
 * Runs axe-core on the whole page as it is now, in the light and the dark colour scheme (the UI
 * follows `prefers-color-scheme`, and contrast is checked per scheme), and fails with a readable
 * list when it finds a serious or critical violation. `screen` names what is on screen, for the
 * failure message. The page is left in the colour scheme and motion setting it was in.
 *
 * axe is injected by evaluating its source through the DevTools protocol, not with a `<script>`
 * tag (`page.addScriptTag` adds an inline script, which the server's CSP `script-src 'self'`
 * refuses, and a refused script is a console error the tests count). DevTools evaluation is not
 * governed by the page's CSP, so the check runs against the production headers, unchanged, and
 * without `bypassCSP`, which would also hide the CSP violations the other assertions look for.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const [dark, reduced] = await page.evaluate(() => [matchMedia('(prefers-color-scheme: dark)').matches, matchMedia('(prefers-reduced-motion: reduce)').matches]);
  const found: string[] = [];
  try {
    for (const scheme of dark ? (['dark', 'light'] as const) : (['light', 'dark'] as const)) {
      // Reduced motion ends the UI's transitions (the drawer sliding in, a switch's colour), so
      // contrast is measured on the colours at rest, not halfway through a change.
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      const violations = await accessibilityViolations(page);
      found.push(
        ...violations.flatMap((v) => [
          `- ${v.id} (${v.impact}, ${scheme} colours): ${v.help} [${v.helpUrl}]`,
          ...v.nodes.map((node) => `    at ${node.target}\n      ${node.summary.replace(/\n/g, '\n      ')}`),
        ]),
      );
    }
  } finally {
    await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light', reducedMotion: reduced ? 'reduce' : 'no-preference' });
  }
  if (found.length > 0) throw new Error(`${screen}: axe-core found serious or critical accessibility violations:\n${found.join('\n')}`);
}

/** The serious and critical violations axe-core finds on the page as it is now. */
export async function accessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  // A navigation (or a reload) drops the injected script: inject again when it is missing.
  if (!(await page.evaluate(() => 'axe' in window))) {
    const cdp = await page.context().newCDPSession(page);
    try {
      const { exceptionDetails } = (await cdp.send('Runtime.evaluate', { expression: AXE_SOURCE })) as { exceptionDetails?: { text: string } };
      if (exceptionDetails) throw new Error(`axe-core could not be injected: ${exceptionDetails.text}`);
    } finally {
      await cdp.detach();
    }
  }
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'minor',
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((node) => ({ target: node.target.map(String).join(' >> '), summary: node.failureSummary ?? '' })),
    }));
  });
  return results.filter((v) => BLOCKING.includes(v.impact));
}

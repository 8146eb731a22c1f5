import type { AxeResults } from 'axe-core';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { width: 375, height: 812 };

async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a script tag: the app's content security policy forbids inline scripts.
  await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe.run(document, {
      resultTypes: ['violations'],
    }),
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/** Colours ease between themes: waits until every transition the switch started has finished. */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
}

/**
 * A main screen passes axe with no serious or critical violation in the light and the dark
 * theme, and fits a 375 px wide phone without sideways scrolling.
 */
export async function checkScreen(page: Page, screen: string): Promise<void> {
  const viewport = page.viewportSize();
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(100);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > PHONE.width) {
    // Name the culprits, so a failure says what to fix.
    const wide = await page.evaluate((limit) => {
      const describe = (element: Element) =>
        `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}`;
      return [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > limit + 1)
        .slice(0, 8)
        .map(describe);
    }, PHONE.width);
    expect.fail(`${screen} is ${width}px wide on a ${PHONE.width}px phone; too wide: ${wide.join(', ')}`);
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await settled(page);
    expect(await seriousViolations(page), `${screen} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
  if (viewport) await page.setViewportSize(viewport);
}

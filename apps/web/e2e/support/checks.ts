import type { AxeResults } from 'axe-core';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };
/** Where screenshots of screens go, to be looked at by a person. */
const SHOTS_DIR = process.env.E2E_SHOTS_DIR || '/tmp/shots';

async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a script tag: the app's content security policy forbids inline scripts.
  await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe.run(
      document,
      {
        resultTypes: ['violations'],
      },
    ),
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}

/** Colours ease between themes: waits until every transition the switch started has finished. */
export async function settled(page: Page): Promise<void> {
  // One cancelled meanwhile (its element gone, as a timed message goes) has settled too.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );
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

/**
 * Screenshots of the screen at a desktop's and a phone's width, in the light and the dark theme,
 * as `<name>-<width>-<theme>.png` in E2E_SHOTS_DIR: the whole page, or what a scrolled page shows.
 */
export async function shoot(
  page: Page,
  name: string,
  { viewports = [DESKTOP, PHONE], fullPage = true } = {},
): Promise<void> {
  const viewport = page.viewportSize();
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  for (const size of viewports) {
    await page.setViewportSize(size);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await settled(page);
      await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${size.width}-${colorScheme}.png`), fullPage });
    }
  }
  await page.emulateMedia({ colorScheme: null });
  if (viewport) await page.setViewportSize(viewport);
}

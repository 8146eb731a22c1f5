/**
 * Draws the installed app's icons (public/icons/) from the site's icon, public/favicon.svg, in
 * headless Chromium: run it again after changing the favicon, and commit the pictures.
 *
 *   npx tsx scripts/draw-icons.ts
 *
 * - icon-192.png, icon-512.png: the favicon as it is, for browsers and launchers that show it whole.
 * - icon-maskable-512.png: the favicon's colour to every edge with its mark inside the central
 *   circle of 80% that every launcher's mask keeps (Android crops icons to circles and squircles).
 * - apple-touch-icon.png (180 px): the same full-bleed picture, which iOS rounds itself; a
 *   transparent corner would turn black there.
 * - badge-96.png: the mark alone in white, which Android shows in the status bar beside a
 *   notification (it uses only the picture's transparency).
 */
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium } from '../e2e/support/chromium';
import { webDir } from '../e2e/support/server';

const favicon = fs.readFileSync(path.join(webDir, 'public/favicon.svg'), 'utf8');
const background = /<rect\b[^>]*\/>/.exec(favicon)?.[0];
const fill = background && /fill="([^"]+)"/.exec(background)?.[1];
if (!background || !fill)
  throw new Error('public/favicon.svg has no background <rect fill="…"/> to draw the icons from');
/** The favicon's mark: everything drawn over its background. */
const mark = favicon
  .replace(/^<svg[^>]*>/, '')
  .replace(/<\/svg>\s*$/, '')
  .replace(background, '');
/** The favicon's canvas, 32 units square: its centre is where the mark is scaled around. */
const around = (scale: number, content: string) =>
  `<g transform="translate(16 16) scale(${scale}) translate(-16 -16)">${content}</g>`;
const svg = (content: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${content}</svg>`;

/** The mark reaches 14.8 units from the centre; 0.8 of that stays inside the maskable safe circle (12.8 units). */
const fullBleed = svg(`<rect width="32" height="32" fill="${fill}"/>${around(0.8, mark)}`);
const badge = svg(around(1.35, mark.replaceAll(/(stroke|fill)="#[0-9a-fA-F]{3,6}"/g, '$1="#fff"')));

const icons = [
  { file: 'icon-192.png', size: 192, picture: favicon },
  { file: 'icon-512.png', size: 512, picture: favicon },
  { file: 'icon-maskable-512.png', size: 512, picture: fullBleed },
  { file: 'apple-touch-icon.png', size: 180, picture: fullBleed },
  { file: 'badge-96.png', size: 96, picture: badge },
];

const outDir = path.join(webDir, 'public/icons');
fs.mkdirSync(outDir, { recursive: true });
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  for (const { file, size, picture } of icons) {
    await page.setViewportSize({ width: size, height: size });
    const dataUrl = `data:image/svg+xml;base64,${Buffer.from(picture).toString('base64')}`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}img{display:block;width:${size}px;height:${size}px}</style><img src="${dataUrl}" alt="">`,
    );
    await page.locator('img').evaluate((image: HTMLImageElement) => image.decode());
    await page.screenshot({ path: path.join(outDir, file), omitBackground: true });
    console.log(`public/icons/${file}: ${size}×${size}`);
  }
} finally {
  await browser.close();
}

import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium package; CHROMIUM_PATH names another build of Chromium. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function hasChromium(): boolean {
  return fs.existsSync(CHROMIUM_PATH);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

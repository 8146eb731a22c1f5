import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH, hasChromium } from './chromium';
import { startServer, testsWebDist, webDir } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the app and its API answer; empty when the browser tests are skipped. */
    baseUrl: string;
  }
}

/** Under CI the browser tests must run: a machine that cannot run them fails rather than skips. */
function browserTestsRequired(): boolean {
  const ci = process.env.CI ?? '';
  return ci !== '' && ci !== 'false' && ci !== '0';
}

function announceSkip(why: string): void {
  const line = '='.repeat(72);
  console.error(`\n${line}\nSKIPPED browser tests: ${why}\n${line}\n`);
}

export default async function setup(project: TestProject) {
  if (!hasChromium()) {
    const why = `chromium not found at ${CHROMIUM_PATH} (on Debian: apt-get install -y chromium)`;
    if (browserTestsRequired()) throw new Error(`The browser tests must run under CI, but cannot: ${why}`);
    announceSkip(why);
    project.provide('baseUrl', '');
    // Said again once the run is over, where it is not lost among the other output.
    return () => announceSkip(why);
  }

  // A separate process, so the build is the production one whatever mode the test runner set.
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', testsWebDist, '--emptyOutDir'], {
    cwd: webDir,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });

  // The demo community stays out: each test file makes the people it needs (demo-insights starts a server of its own
  // with it).
  const server = await startServer({ seedDemo: false });
  project.provide('baseUrl', server.baseUrl);
  return server.stop;
}

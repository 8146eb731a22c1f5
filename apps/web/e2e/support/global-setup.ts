import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH, hasChromium } from './chromium';
import { startServer, testsWebDist, webDir } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the shared servers' app and API answer, one for each file run at once; none when the tests are skipped. */
    baseUrls: string[];
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
    project.provide('baseUrls', []);
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

  // One server for each file run at once (support/shared-server.ts), so that no two files at once share a community's
  // lists. The demo community stays out: each test file makes the people it needs (demo-insights starts a server of
  // its own with it).
  const servers = await Promise.all(Array.from({ length: project.config.maxWorkers }, () => startServer()));
  project.provide(
    'baseUrls',
    servers.map((server) => server.baseUrl),
  );
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
}

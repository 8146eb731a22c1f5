import { defineConfig } from 'vitest/config';

/** The browser tests: the built app and the real server on a fresh database, driven in Chromium. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['e2e/support/global-setup.ts'],
    // Two files at a time, each worker with a server of its own (support/shared-server.ts): most of a file's time is
    // the browser's and the server's waits, and one file at a time left a third of the two cores idle.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
